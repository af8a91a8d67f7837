"use client";

import { useId } from "react";
import type { OfficeHoursState } from "@/lib/apps/schemas";
import { formatDateTime } from "@/lib/client/format";
import { useOfficeHours } from "@/lib/client/use-office-hours";
import { OfficeHoursForm } from "./office-hours-form";
import { SectionCard } from "./section-card";
import { SectionQuery } from "./section-query";
import { TimeZoneSetting } from "./time-zone-setting";

/** Settings → Office hours: when the team answers, in the app's time zone, and whether it is open now. */
export function OfficeHoursSection({ appId }: { appId: string }) {
  const titleId = useId();
  return (
    <div className="space-y-6">
      <TimeZoneSetting appId={appId} />
      <OfficeHoursCard appId={appId} titleId={titleId} />
    </div>
  );
}

function OfficeHoursCard({ appId, titleId }: { appId: string; titleId: string }) {
  return (
    <SectionQuery query={useOfficeHours(appId)} what="the office hours">
      {(s) => (
        <SectionCard
          title="Office hours"
          titleId={titleId}
          description="When the team answers visitors. Outside them the messenger says the team is away, and when it is back."
        >
          <div className="space-y-5">
            <OfficeHoursStatus state={s} />
            <OfficeHoursForm appId={appId} state={s} titleId={titleId} />
          </div>
        </SectionCard>
      )}
    </SectionQuery>
  );
}

/** Now, as saved: open or closed, and when it opens (in the app's time zone, as the hours are). */
function OfficeHoursStatus({ state }: { state: OfficeHoursState }) {
  const { open_now: open, opens_at: opensAt, time_zone: timeZone } = state;
  const text = open
    ? state.office_hours === null
      ? "Open now (always open)"
      : "Open now"
    : opensAt
      ? `Closed — opens ${formatDateTime(Date.parse(opensAt) / 1000, { timeZone })}`
      : "Closed — not opening in the next 14 days";
  return (
    <div className="space-y-1 rounded-lg bg-slate-50 px-3 py-2 text-sm">
      <p role="status" data-testid="office-hours-status" className="font-medium text-slate-900">
        <span
          aria-hidden="true"
          className={`mr-2 inline-block size-2 rounded-full ${open ? "bg-emerald-500" : "bg-slate-400"}`}
        />
        {text}
      </p>
      <p className="text-slate-600">
        Times are in the app&apos;s time zone,{" "}
        <code className="font-mono text-slate-900" data-testid="office-hours-zone">
          {timeZone}
        </code>
        .
      </p>
    </div>
  );
}
