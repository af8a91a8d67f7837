"use client";

import { useState } from "react";
import { EmptyState, PageHeader } from "@/components/panel/page-header";
import { isoDay } from "@/lib/client/format";
import { presetRange, type PresetId } from "@/lib/client/report-range";
import { appPath } from "@/lib/client/settings-types";
import { useAppSettings } from "@/lib/client/use-app-settings";
import { useCurrentApp } from "@/lib/client/use-current-app";
import type { ReportParams } from "@/lib/client/use-report";
import {
  BusiestHoursCard,
  ConversationsCard,
  LeadsCard,
  OperatorsCard,
  ResponseTimesCard,
} from "./report-charts";
import { ReportsFilters, type FilterState } from "./reports-filters";
import { CsatCard } from "./csat-card";
import { BreakdownCard } from "./breakdown-card";

export function ReportsView() {
  const { app } = useCurrentApp();
  if (!app) return <EmptyState title="No app">You are not a member of any app yet.</EmptyState>;
  return <ReportsForApp key={String(app.id)} appId={String(app.id)} />;
}

function ReportsForApp({ appId }: { appId: string }) {
  const settings = useAppSettings(appId);
  if (settings.isError) return <EmptyState title="Can’t load reports">{settings.error.message}</EmptyState>;
  if (!settings.data) return null;
  return <Reports appId={appId} tz={settings.data.time_zone} />;
}

function Reports({ appId, tz }: { appId: string; tz: string }) {
  const [f, setF] = useState<FilterState>(() => ({
    preset: "30d",
    ...presetRange("30d", tz),
    operator: "",
    channel: "",
  }));
  const onPreset = (preset: PresetId) =>
    setF((x) => ({ ...x, preset, ...(preset === "custom" ? {} : presetRange(preset, tz)) }));
  const params: ReportParams = {
    from: f.from,
    to: f.to,
    ...(f.operator ? { operator: f.operator } : {}),
    ...(f.channel ? { channel: f.channel } : {}),
  };
  return (
    <>
      <PageHeader
        title="Reports"
        description={
          <>
            Exact counts for {f.from} to {f.to}, days in <span data-testid="reports-time-zone">{tz}</span>{" "}
            (today: {isoDay(new Date(), tz)})
          </>
        }
        actions={
          // One file for every card below (lib/reports-export): the server's figures, durations in seconds.
          <a
            href={`${appPath(appId)}/reports/export?${new URLSearchParams({ ...params })}`}
            download
            data-testid="reports-export"
            className="inline-flex h-8 items-center rounded-md bg-white px-2.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            Export all (CSV)
          </a>
        }
      />
      <div className="space-y-4 px-6 py-5 md:px-8">
        <ReportsFilters
          appId={appId}
          value={f}
          onPreset={onPreset}
          onChange={(patch) => setF((x) => ({ ...x, ...patch }))}
        />
        <div className="grid gap-4 xl:grid-cols-2">
          <ConversationsCard appId={appId} params={params} />
          <LeadsCard appId={appId} params={params} />
          <ResponseTimesCard appId={appId} params={params} which="first_response" />
          <ResponseTimesCard appId={appId} params={params} which="close" />
          <BusiestHoursCard appId={appId} params={params} />
          <OperatorsCard appId={appId} params={params} />
          <CsatCard appId={appId} params={params} />
          <BreakdownCard appId={appId} params={params} />
        </div>
      </div>
    </>
  );
}
