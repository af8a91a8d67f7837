"use client";

import type { AdminMember } from "@/lib/admins/schemas";
import type { Channel } from "@/lib/client/settings-types";

/** Per channel, the IDs of the operators its new conversations are routed among; none: all of them. */
export type ChannelOperators = Record<string, string[]>;

/**
 * One group of checkboxes a channel: a channel with some checked routes its new conversations among those only,
 * one with none among all the app's Available operators.
 */
export function RoutingChannels({
  channels,
  operators,
  value,
  onChange,
}: {
  channels: readonly Channel[];
  operators: readonly AdminMember[];
  value: ChannelOperators;
  onChange: (next: ChannelOperators) => void;
}) {
  if (channels.length === 0 || operators.length === 0) return null;
  return (
    <div className="w-full space-y-3">
      <p className="text-sm text-slate-700">
        Per channel: route only to the operators checked. A channel with none checked uses every operator.
      </p>
      {channels.map((c) => {
        const channelId = String(c.id);
        const checked = value[channelId] ?? [];
        const toggle = (adminId: string, on: boolean) =>
          onChange({
            ...value,
            [channelId]: on ? [...checked, adminId] : checked.filter((a) => a !== adminId),
          });
        return (
          <fieldset key={channelId} className="rounded-lg border border-slate-200 px-3 py-2">
            <legend className="px-1 text-sm font-medium text-slate-800">
              {c.name}
              <span className="ml-2 text-xs font-normal text-slate-500">
                {checked.length === 0 ? "All operators" : `${checked.length} selected`}
              </span>
            </legend>
            <div className="grid gap-x-4 gap-y-1.5 sm:grid-cols-2">
              {operators.map((o) => {
                const adminId = String(o.id);
                return (
                  <label key={adminId} className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      checked={checked.includes(adminId)}
                      onChange={(e) => toggle(adminId, e.target.checked)}
                      className="size-4 shrink-0 rounded border-slate-300 accent-brand-600"
                    />
                    {o.name}
                  </label>
                );
              })}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
