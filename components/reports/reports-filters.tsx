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
      <label className="text-xs font-medium text-slate-700">
        Operator
        <select
          aria-label="Operator"
          className={`${control} mt-1 block`}
          value={value.operator}
          onChange={(e) => onChange({ operator: e.target.value })}
        >
          <option value="">All operators</option>
          {(admins.data ?? []).map((a) => (
            <option key={String(a.id)} value={String(a.id)}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <label className="text-xs font-medium text-slate-700">
        Channel
        <select
          aria-label="Channel"
          className={`${control} mt-1 block`}
          value={value.channel}
          onChange={(e) => onChange({ channel: e.target.value })}
        >
          <option value="">All channels</option>
          {(channels.data ?? []).map((c) => (
            <option key={String(c.id)} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
