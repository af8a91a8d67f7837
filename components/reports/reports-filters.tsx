"use client";

import { Input } from "@/components/ui/input";
import { PRESETS, type PresetId } from "@/lib/client/report-range";
import { useAdmins } from "@/lib/client/use-admins";
import { useChannels } from "@/lib/client/use-channels";

export interface FilterState {
  preset: PresetId;
  from: string;
  to: string;
  operator: string;
  channel: string;
}

const control =
  "h-9 rounded-lg bg-white px-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-brand-600";

interface Props {
  appId: string;
  value: FilterState;
  onPreset: (p: PresetId) => void;
  onChange: (patch: Partial<FilterState>) => void;
}

/** Date range (presets or two days), operator and channel: what every chart of the page is computed over. */
export function ReportsFilters({ appId, value, onPreset, onChange }: Props) {
  const admins = useAdmins(appId);
  const channels = useChannels(appId);
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => e.preventDefault()}
      aria-label="Report filters"
    >
      <label className="text-xs font-medium text-slate-700">
        Range
        <select
          aria-label="Range"
          className={`${control} mt-1 block`}
          value={value.preset}
          onChange={(e) => onPreset(e.target.value as PresetId)}
        >
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom</option>
        </select>
      </label>
      {value.preset === "custom" && (
        <>
          <label className="text-xs font-medium text-slate-700">
            From
            <Input
              type="date"
              className="mt-1 h-9 w-40"
              value={value.from}
              max={value.to}
              onChange={(e) => e.target.value && onChange({ from: e.target.value })}
            />
          </label>
          <label className="text-xs font-medium text-slate-700">
            To
            <Input
              type="date"
              className="mt-1 h-9 w-40"
              value={value.to}
              min={value.from}
              onChange={(e) => e.target.value && onChange({ to: e.target.value })}
            />
          </label>
        </>
      )}
      <FilterSelect
        label="Operator"
        all="All operators"
        value={value.operator}
        options={admins.data ?? []}
        onChange={(operator) => onChange({ operator })}
      />
      <FilterSelect
        label="Channel"
        all="All channels"
        value={value.channel}
        options={channels.data ?? []}
        onChange={(channel) => onChange({ channel })}
      />
    </form>
  );
}

/** One of the "who" filters: an operator or a channel by ID, or all of them (the empty value). */
function FilterSelect({
  label,
  all,
  value,
  options,
  onChange,
}: {
  label: string;
  all: string;
  value: string;
  options: readonly { id: number | string; name: string }[];
  onChange: (id: string) => void;
}) {
  return (
    <label className="text-xs font-medium text-slate-700">
      {label}
      <select
        aria-label={label}
        className={`${control} mt-1 block`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={String(o.id)} value={String(o.id)}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}
