"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { breakdownTable } from "@/lib/client/reports-csv";
import { useBreakdownReport } from "@/lib/client/use-breakdown-report";
import type { ReportParams } from "@/lib/client/use-report";
import { BREAKDOWN_BY, type BreakdownBy } from "@/lib/reports/schemas";
import { CategoryChart } from "./category-chart";
import { ChartCard } from "./chart-card";

// Colours of the light theme, each at least 4.5:1 on white (as report-charts.tsx).
const BLUE = "#1d4ed8";
const GREEN = "#047857";

const LABEL: Record<BreakdownBy, string> = { channel: "Channel", tag: "Tag" };

/**
 * Reports → breakdown: conversations started and closed and the median first response, per channel or per tag,
 * with the page's range and filters. A conversation counts under each of its tags, so the tag rows can add up to
 * more than the total.
 */
export function BreakdownCard({ appId, params }: { appId: string; params: ReportParams }) {
  const [by, setBy] = useState<BreakdownBy>("channel");
  const q = useBreakdownReport(appId, by, params);
  const s = q.data?.by === by ? q.data.series : [];
  const none = by === "channel" ? "No channel" : "No tag";
  const names = s.map((x) => (x.key === null ? none : x.name));
  return (
    <ChartCard
      id="breakdown"
      title={`By ${by}`}
      description={
        by === "channel"
          ? "Conversations started and closed, and the median first response, per channel"
          : "The same per tag: a conversation counts under each tag it has"
      }
      headline={
        <div className="mt-2 flex gap-1" role="group" aria-label="Break down by">
          {BREAKDOWN_BY.map((x) => (
            <Button
              key={x}
              size="sm"
              variant={by === x ? "secondary" : "ghost"}
              aria-pressed={by === x}
              onClick={() => setBy(x)}
            >
              {LABEL[x]}
            </Button>
          ))}
        </div>
      }
      table={breakdownTable(s, by)}
      loading={q.isFetching}
      error={q.error?.message ?? null}
    >
      <CategoryChart
        kind="bar"
        categories={names}
        series={[
          { label: "Started", color: BLUE, values: s.map((x) => x.started) },
          { label: "Closed", color: GREEN, values: s.map((x) => x.closed) },
        ]}
        xLabel={LABEL[by]}
        yLabel="Conversations"
        summary={`${s.length} ${by === "channel" ? "channels" : "tags"} with conversations in the range`}
      />
    </ChartCard>
  );
}
