"use client";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import {
  appendAt,
  countConditions,
  isGroup,
  moveAt,
  removeAt,
  replaceAt,
  updateGroup,
  type Path,
} from "@/lib/client/lead-filters";
import { MAX_CONDITIONS, MAX_DEPTH, type FilterGroup } from "@/lib/leads/filter-grammar";
import type { CatalogProp, Segment } from "@/lib/client/leads-types";
import { ConditionRow, controlClass } from "./condition-row";

const NEW_CONDITION = { property_name: "$email", type: "str_contains" as const, value: {} };

interface Props {
  value: FilterGroup;
  catalog: CatalogProp[];
  segments: Segment[];
  onChange: (g: FilterGroup) => void;
}

/** The filter grammar as nested and/or groups of conditions; every control is labelled by its position. */
export function FilterBuilder({ value, catalog, segments, onChange }: Props) {
  const full = countConditions(value) >= MAX_CONDITIONS;
  return (
    <div className="space-y-2">
      <GroupView
        group={value}
        path={[]}
        root={value}
        catalog={catalog}
        segments={segments}
        full={full}
        onChange={onChange}
      />
      {full && <p className="text-sm text-amber-700">A filter holds at most {MAX_CONDITIONS} conditions.</p>}
    </div>
  );
}

function GroupView({
  group,
  path,
  root,
  catalog,
  segments,
  full,
  onChange,
  siblings,
}: {
  group: FilterGroup;
  path: Path;
  root: FilterGroup;
  catalog: CatalogProp[];
  segments: Segment[];
  full: boolean;
  onChange: (g: FilterGroup) => void;
  siblings?: number;
}) {
  const name = path.length === 0 ? "the filter" : `group ${path.map((i) => i + 1).join(".")}`;
  const depth = path.length + 1;
  const idx = path[path.length - 1] ?? 0;
  return (
    <fieldset
      className={cn("rounded-xl p-3", path.length ? "bg-slate-100 ring-1 ring-slate-200" : "bg-slate-50")}
      aria-label={path.length ? name : "Filter"}
    >
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <label className="inline-flex items-center gap-2">
          <span>Leads matching</span>
          <select
            aria-label={`Combine ${name} with`}
            className={controlClass}
            value={group.type}
            onChange={(e) =>
              onChange(updateGroup(root, path, (g) => ({ ...g, type: e.target.value as "and" | "or" })))
            }
          >
            <option value="and">all (and)</option>
            <option value="or">any (or)</option>
          </select>
          <span>of these</span>
        </label>
        {path.length > 0 && (
          <span className="ml-auto flex gap-1">
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Move ${name} up`}
              disabled={idx === 0}
              onClick={() => onChange(moveAt(root, path, -1))}
            >
              ↑
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Move ${name} down`}
              disabled={idx >= (siblings ?? 1) - 1}
              onClick={() => onChange(moveAt(root, path, 1))}
            >
              ↓
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove ${name}`}
              onClick={() => onChange(removeAt(root, path))}
            >
              ✕
            </Button>
          </span>
        )}
      </div>
      <ul className="space-y-2">
        {group.filters.map((node, i) => {
          const p = [...path, i];
          if (isGroup(node)) {
            return (
              <li key={i}>
                <GroupView
                  group={node}
                  path={p}
                  root={root}
                  catalog={catalog}
                  segments={segments}
                  full={full}
                  onChange={onChange}
                  siblings={group.filters.length}
                />
              </li>
            );
          }
          return (
            <ConditionRow
              key={i}
              cond={node}
              label={`condition ${p.map((n) => n + 1).join(".")}`}
              catalog={catalog}
              segments={segments}
              first={i === 0}
              last={i === group.filters.length - 1}
              onChange={(c) => onChange(replaceAt(root, p, c))}
              onRemove={() => onChange(removeAt(root, p))}
              onMove={(d) => onChange(moveAt(root, p, d))}
            />
          );
        })}
      </ul>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="secondary"
          disabled={full}
          onClick={() => onChange(appendAt(root, path, { ...NEW_CONDITION }))}
        >
          Add condition{path.length ? ` to ${name}` : ""}
        </Button>
        {depth < MAX_DEPTH && (
          <Button
            size="sm"
            variant="secondary"
            disabled={full}
            onClick={() => onChange(appendAt(root, path, { type: "or", filters: [{ ...NEW_CONDITION }] }))}
          >
            Add group{path.length ? ` to ${name}` : ""}
          </Button>
        )}
      </div>
    </fieldset>
  );
}
