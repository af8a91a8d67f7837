"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import type { AppRouting } from "@/lib/apps/schemas";
import { useRouting } from "@/lib/client/use-routing";
import { useUpdateRouting } from "@/lib/client/use-update-routing";
import { ErrorAlert } from "./error-alert";
import { SectionCard } from "./section-card";

const control =
  "h-9 rounded-md bg-white px-2 text-sm text-slate-800 ring-1 ring-slate-300 ring-inset focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none";

/** Owners choose whether new visitor conversations go round robin to Available operators, and the cap. */
export function RoutingSection({ appId }: { appId: string }) {
  const routing = useRouting(appId);
  return (
    <SectionCard
      title="Routing"
      titleId="routing-title"
      description="New visitor conversations can be assigned in turn to the operators who are Available."
    >
      {routing.isPending ? (
        <Spinner label="Loading routing" />
      ) : routing.isError ? (
        <ErrorAlert error={routing.error} title="Can’t load routing" />
      ) : (
        <RoutingForm key={JSON.stringify(routing.data)} appId={appId} saved={routing.data} />
      )}
    </SectionCard>
  );
}

function RoutingForm({ appId, saved }: { appId: string; saved: AppRouting }) {
  const update = useUpdateRouting(appId);
  const [mode, setMode] = useState(saved.routing);
  const [cap, setCap] = useState(saved.routing_cap === null ? "" : String(saved.routing_cap));
  const capValue = cap.trim() === "" ? null : Number(cap);
  const capError =
    capValue !== null && (!Number.isInteger(capValue) || capValue < 1)
      ? "A whole number from 1, or empty"
      : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (capError) return;
    update.mutate({ routing: mode, routing_cap: capValue });
  };
  return (
    <form aria-label="Routing" className="flex flex-wrap items-end gap-4" onSubmit={submit}>
      <label className="flex flex-col gap-1 text-sm text-slate-700">
        Assign new conversations
        <select
          className={control}
          value={mode}
          onChange={(e) => setMode(e.target.value as AppRouting["routing"])}
        >
          <option value="off">Leave unassigned</option>
          <option value="round_robin">Round robin among Available operators</option>
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
      <Button type="submit" loading={update.isPending}>
        Save routing
      </Button>
      {capError && (
        <p role="alert" className="w-full text-xs text-red-700">
          {capError}
        </p>
      )}
      <ErrorAlert error={update.error} title="Could not save routing" />
    </form>
  );
}
