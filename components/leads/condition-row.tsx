"use client";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { operatorLabel } from "@/lib/client/lead-filters";
import {
  MAX_DAYS,
  MAX_TEXT,
  operatorsFor,
  valueKind,
  type CondType,
  type FilterCondition,
  type OperandKind,
} from "@/lib/leads/filter-grammar";
import type { CatalogProp, Segment } from "@/lib/client/leads-types";
import { asText } from "./format";
import { PropertyPicker } from "./property-picker";

export const controlClass = cn(
  "h-9 rounded-md bg-white px-2 text-sm text-slate-900 ring-1 ring-inset ring-slate-300",
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600",
);

export function operandKind(name: string, catalog: CatalogProp[]): OperandKind {
  if (name === "$tag") return "tag";
  if (name === "$segment") return "segment";
  return catalog.find((p) => p.name === name)?.type ?? "string";
}

/** A `YYYY-MM-DD` input value as the ISO date-time the API takes (midnight UTC), and back. */
const toIso = (d: string) => (d ? `${d}T00:00:00` : "");
const fromIso = (v: unknown) => (typeof v === "string" ? v.slice(0, 10) : "");

function ValueInput({
  cond,
  label,
  segments,
  onChange,
}: {
  cond: FilterCondition;
  label: string;
  segments: Segment[];
  onChange: (value: Record<string, unknown>) => void;
}) {
  const kind = valueKind(cond.type);
  const v = cond.value;
  const num = (s: string) => (s === "" ? "" : Number(s));
  const str = asText;
  switch (kind) {
    case "none":
      return null;
    case "number":
      return (
        <input
          type="number"
          step="any"
          aria-label={label}
          className={cn(controlClass, "w-28")}
          value={str(v.value)}
          onChange={(e) => onChange({ value: num(e.target.value) })}
        />
      );
    case "days":
      return (
        <span className="inline-flex items-center gap-1.5 text-sm text-slate-600">
          <input
            type="number"
            min={0}
            max={MAX_DAYS}
            aria-label={label}
            className={cn(controlClass, "w-20")}
            value={str(v.value)}
            onChange={(e) => onChange({ value: num(e.target.value) })}
          />
          days
        </span>
      );
    case "numbers":
      return (
        <span className="inline-flex items-center gap-1.5 text-sm text-slate-600">
          <input
            type="number"
            step="any"
            aria-label={`${label}, from`}
            className={cn(controlClass, "w-24")}
            value={str(v.value1)}
            onChange={(e) => onChange({ ...v, value1: num(e.target.value) })}
          />
          and
          <input
            type="number"
            step="any"
            aria-label={`${label}, to`}
            className={cn(controlClass, "w-24")}
            value={str(v.value2)}
            onChange={(e) => onChange({ ...v, value2: num(e.target.value) })}
          />
        </span>
      );
    case "date":
      return (
        <input
          type="date"
          aria-label={label}
          className={controlClass}
          value={fromIso(v.value)}
          onChange={(e) => onChange({ value: toIso(e.target.value) })}
        />
      );
    case "dates":
      return (
        <span className="inline-flex items-center gap-1.5 text-sm text-slate-600">
          <input
            type="date"
            aria-label={`${label}, from`}
            className={controlClass}
            value={fromIso(v.value1)}
            onChange={(e) => onChange({ ...v, value1: toIso(e.target.value) })}
          />
          and
          <input
            type="date"
            aria-label={`${label}, to`}
            className={controlClass}
            value={fromIso(v.value2)}
            onChange={(e) => onChange({ ...v, value2: toIso(e.target.value) })}
          />
        </span>
      );
    case "segment":
      return (
        <select
          aria-label={label}
          className={controlClass}
          value={str(v.value)}
          onChange={(e) => onChange({ value: e.target.value === "" ? "" : Number(e.target.value) })}
        >
          <option value="">Choose a segment…</option>
          {segments.map((s) => (
            <option key={String(s.id)} value={String(s.id)}>
              {s.name}
            </option>
          ))}
        </select>
      );
    case "text":
      return (
        <input
          type="text"
          maxLength={MAX_TEXT}
          aria-label={label}
          className={cn(controlClass, "w-44")}
          value={str(v.value)}
          onChange={(e) => onChange({ value: e.target.value })}
        />
      );
  }
}

export function ConditionRow({
  cond,
  label,
  catalog,
  segments,
  first,
  last,
  onChange,
  onRemove,
  onMove,
}: {
  cond: FilterCondition;
  /** "condition 2.1": names every control of the row for assistive technology and tests. */
  label: string;
  catalog: CatalogProp[];
  segments: Segment[];
  first: boolean;
  last: boolean;
  onChange: (c: FilterCondition) => void;
  onRemove: () => void;
  onMove: (delta: -1 | 1) => void;
}) {
  const ops = operatorsFor(operandKind(cond.property_name, catalog));
  const setProp = (name: string) => {
    const nextOps = operatorsFor(operandKind(name, catalog));
    const type = nextOps.includes(cond.type) ? cond.type : nextOps[0]!;
    onChange({
      property_name: name,
      type,
      value: valueKind(type) === valueKind(cond.type) ? cond.value : {},
    });
  };
  const setType = (type: CondType) =>
    onChange({ ...cond, type, value: valueKind(type) === valueKind(cond.type) ? cond.value : {} });
  return (
    <li className="flex flex-wrap items-center gap-2 rounded-lg bg-white p-2 ring-1 ring-slate-200">
      <PropertyPicker
        value={cond.property_name}
        catalog={catalog}
        label={`Property of ${label}`}
        className="w-52"
        onChange={setProp}
      />
      <select
        aria-label={`Operator of ${label}`}
        className={controlClass}
        value={cond.type}
        onChange={(e) => setType(e.target.value as CondType)}
      >
        {ops.map((t) => (
          <option key={t} value={t}>
            {operatorLabel(t)}
          </option>
        ))}
      </select>
      <ValueInput
        cond={cond}
        label={`Value of ${label}`}
        segments={segments}
        onChange={(value) => onChange({ ...cond, value })}
      />
      <span className="ml-auto flex gap-1">
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Move ${label} up`}
          disabled={first}
          onClick={() => onMove(-1)}
        >
          ↑
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Move ${label} down`}
          disabled={last}
          onClick={() => onMove(1)}
        >
          ↓
        </Button>
        <Button size="sm" variant="ghost" aria-label={`Remove ${label}`} onClick={onRemove}>
          ✕
        </Button>
      </span>
    </li>
  );
}
