"use client";

import { useState, type FormEvent } from "react";
import { Spinner } from "@/components/ui/spinner";
import type { AppRouting } from "@/lib/apps/schemas";
import { useAdmins } from "@/lib/client/use-admins";
import { useChannels } from "@/lib/client/use-channels";
import { useRouting } from "@/lib/client/use-routing";
import { useUpdateRouting } from "@/lib/client/use-update-routing";
import { ErrorAlert } from "@/components/ui/error-alert";
import { RoutingChannels, type ChannelOperators } from "./routing-channels";
import { SaveRow } from "./save-row";
import { SectionCard } from "./section-card";

const control =
  "h-9 rounded-md bg-white px-2 text-sm text-slate-800 ring-1 ring-slate-300 ring-inset focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none";

const MODES: { value: AppRouting["routing"]; label: string; hint: string }[] = [
  { value: "off", label: "Off — leave unassigned", hint: "New conversations wait in Unassigned." },
  {
    value: "round_robin",
    label: "Round robin — take turns",
    hint: "Each Available operator in turn, in a fixed order, whatever they have open.",
  },
  {
    value: "balanced",
    label: "Balanced — fewest open conversations",
    hint: "The Available operator with the fewest open conversations.",
  },
];

/**
 * Owners choose how new visitor conversations are assigned to Available operators (off, in turns, or to the least
 * loaded), the cap, which operators each channel's conversations go to, and whether replying assigns.
 */
export function RoutingSection({ appId }: { appId: string }) {
  const routing = useRouting(appId);
  const channels = useChannels(appId);
  const admins = useAdmins(appId);
  // Here, not in the form: the form is remade from what is saved, the save's outcome outlives it.
  const update = useUpdateRouting(appId);
  return (
    <SectionCard
      title="Routing"
      titleId="routing-title"
      description="New visitor conversations can be assigned to the operators who are Available."
    >
      {routing.isPending ? (
        <Spinner label="Loading routing" />
      ) : routing.isError ? (
        <ErrorAlert error={routing.error} title="Can’t load routing" />
      ) : (
        <RoutingForm
          key={JSON.stringify(routing.data)}
          saved={routing.data}
          update={update}
          channels={channels.data ?? []}
          operators={admins.data ?? []}
        />
      )}
    </SectionCard>
  );
}

function asStrings(saved: AppRouting["channel_operators"]): ChannelOperators {
  return Object.fromEntries(Object.entries(saved).map(([c, ops]) => [c, ops.map(String)]));
}

function RoutingForm({
  saved,
  update,
  channels,
  operators,
}: {
  saved: AppRouting;
  update: ReturnType<typeof useUpdateRouting>;
  channels: Parameters<typeof RoutingChannels>[0]["channels"];
  operators: Parameters<typeof RoutingChannels>[0]["operators"];
}) {
  const [mode, setMode] = useState(saved.routing);
  const [cap, setCap] = useState(saved.routing_cap === null ? "" : String(saved.routing_cap));
  const [onReply, setOnReply] = useState(saved.assign_on_reply);
  const [perChannel, setPerChannel] = useState(() => asStrings(saved.channel_operators));
  const capValue = cap.trim() === "" ? null : Number(cap);
  const capError =
    capValue !== null && (!Number.isInteger(capValue) || capValue < 1)
      ? "A whole number from 1, or empty"
      : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (capError) return;
    // Every channel the form knows of is sent, so that one cleared here goes back to all operators.
    const known = Object.keys(saved.channel_operators).concat(channels.map((c) => String(c.id)));
    const sent = Object.fromEntries(known.map((c) => [c, perChannel[c] ?? []]));
    update.mutate({
      routing: mode,
      routing_cap: capValue,
      assign_on_reply: onReply,
      channel_operators: sent,
    });
  };
  return (
    <form aria-label="Routing" className="flex flex-wrap items-end gap-4" onSubmit={submit}>
      <label className="flex flex-col gap-1 text-sm text-slate-700">
        Assign new conversations
        <select
          className={control}
          value={mode}
          aria-describedby="routing-mode-hint"
          onChange={(e) => setMode(MODES.find((m) => m.value === e.target.value)?.value ?? "off")}
        >
          {MODES.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm text-slate-700">
        Max open conversations per operator
        <input
          className={control}
          inputMode="numeric"
          placeholder="No cap"
          value={cap}
          aria-invalid={capError ? true : undefined}
          onChange={(e) => setCap(e.target.value)}
        />
      </label>
      <p id="routing-mode-hint" className="w-full text-xs text-slate-500">
        {MODES.find((m) => m.value === mode)?.hint}
      </p>
      {capError && (
        <p role="alert" className="w-full text-xs text-red-700">
          {capError}
        </p>
      )}
      <label className="flex w-full items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="size-4 shrink-0 rounded border-slate-300 accent-brand-600"
          checked={onReply}
          onChange={(e) => setOnReply(e.target.checked)}
        />
        Assign unassigned conversations to the operator who replies
      </label>
      <RoutingChannels
        channels={channels}
        operators={operators}
        value={perChannel}
        onChange={setPerChannel}
      />
      <div className="w-full space-y-3">
        <SaveRow
          label="Save routing"
          pending={update.isPending}
          saved={update.isSuccess}
          error={update.error}
          errorTitle="Could not save routing"
        />
      </div>
    </form>
  );
}
