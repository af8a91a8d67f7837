"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Button } from "@/components/ui/button";
import type { UserCard } from "@/lib/client/leads-types";
import { useUserEvents } from "@/lib/client/use-user-events";
import { controlClass } from "../condition-row";
import { Time } from "@/components/ui/time";
import { formatValue } from "../format";

export function CardEvents({ user }: { user: UserCard }) {
  const [name, setName] = useState("");
  const events = useUserEvents(String(user.id), name);
  const items = events.data?.pages.flat() ?? [];
  return (
    <section aria-labelledby="events-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="events-title" className="text-sm font-semibold text-slate-900">
          Events
        </h2>
        <label className="inline-flex items-center gap-1.5 text-sm text-slate-700">
          Show
          <select
            aria-label="Events to show"
            className={controlClass}
            value={name}
            onChange={(e) => setName(e.target.value)}
          >
            <option value="">all events</option>
            {user.events.map((e) => (
              <option key={String(e.event_type.id)} value={e.event_type.name}>
                {e.event_type.name} ({e.count})
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorAlert error={events.error} title="Could not load events" />
      {events.isPending && <p className="text-sm text-slate-500">Loading events…</p>}
      {events.isSuccess && items.length === 0 && <p className="text-sm text-slate-500">No events.</p>}
      <ol className="space-y-2 border-l border-slate-200 pl-4" aria-label="Events timeline">
        {items.map((e) => (
          <li key={String(e.id)} className="text-sm">
            <p>
              <span className="font-medium text-slate-900">{e.type.name}</span>{" "}
              <Time className="text-slate-500" seconds={e.created} />
            </p>
            {Object.keys(e.props).length > 0 && (
              <p className="truncate text-slate-600">
                {Object.entries(e.props)
                  .map(([k, v]) => `${k}: ${formatValue(v)}`)
                  .join(" · ")}
              </p>
            )}
          </li>
        ))}
      </ol>
      {events.hasNextPage && (
        <Button
          size="sm"
          variant="secondary"
          loading={events.isFetchingNextPage}
          onClick={() => void events.fetchNextPage()}
        >
          Older events
        </Button>
      )}
    </section>
  );
}
