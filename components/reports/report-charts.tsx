"use client";

import {
  busiestHoursTable,
  conversationsTable,
  DAY_NAMES,
  leadsTable,
  operatorsTable,
  responseTimesTable,
} from "@/lib/client/reports-csv";
import { toMinutes } from "@/lib/client/format";
import { useReport, type ReportParams } from "@/lib/client/use-report";
import { CategoryChart } from "./category-chart";
import { ChartCard } from "./chart-card";
import { Heatmap } from "./heatmap";

// Colours of the light theme, each at least 4.5:1 on white.
const BLUE = "#1d4ed8";
const GREEN = "#047857";
const AMBER = "#b45309";
const VIOLET = "#6d28d9";

interface Props {
  appId: string;
  params: ReportParams;
}

const errorOf = (e: Error | null) => (e ? `Could not load: ${e.message}` : null);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function ConversationsCard({ appId, params }: Props) {
  const q = useReport(appId, "conversations", params);
  const s = q.data?.series ?? [];
  return (
    <ChartCard
      id="conversations"
      title="Conversations started and closed"
      description="Per day in the app's time zone"
      table={conversationsTable(s)}
      loading={q.isFetching}
      error={errorOf(q.error)}
    >
      <CategoryChart
        kind="bar"
        categories={s.map((d) => d.day)}
        series={[
          { label: "Started", color: BLUE, values: s.map((d) => d.started) },
          { label: "Closed", color: GREEN, values: s.map((d) => d.closed) },
        ]}
        xLabel="Day"
        yLabel="Conversations"
        summary={`${sum(s.map((d) => d.started))} started and ${sum(s.map((d) => d.closed))} closed over ${s.length} days`}
      />
    </ChartCard>
  );
}

export function ResponseTimesCard({ appId, params, which }: Props & { which: "first_response" | "close" }) {
  const q = useReport(appId, "response_times", params);
  const s = q.data?.series ?? [];
  const first = which === "first_response";
  const pick = (d: (typeof s)[number]) =>
    first
      ? { n: d.first_response_count, m: d.first_response_median, p: d.first_response_p90 }
      : { n: d.close_count, m: d.close_median, p: d.close_p90 };
  return (
    <ChartCard
      id={first ? "first-response" : "time-to-close"}
      title={first ? "First response time" : "Time to close"}
      description={
        first
          ? "Visitor's first message to the first operator reply, by the day the conversation started (minutes)"
          : "Conversation start to each close, by the day of the close (minutes)"
      }
      table={responseTimesTable(s, which)}
      loading={q.isFetching}
      error={errorOf(q.error)}
    >
      <CategoryChart
        kind="line"
        categories={s.map((d) => d.day)}
        series={[
          { label: "Median", color: first ? BLUE : GREEN, values: s.map((d) => toMinutes(pick(d).m)) },
          { label: "90th percentile", color: AMBER, values: s.map((d) => toMinutes(pick(d).p)) },
        ]}
        xLabel="Day"
        yLabel="Minutes"
        summary={`${first ? "First response" : "Time to close"}: median and 90th percentile per day, ${sum(s.map((d) => pick(d).n))} samples`}
      />
    </ChartCard>
  );
}

export function BusiestHoursCard({ appId, params }: Props) {
  const q = useReport(appId, "busiest_hours", params);
  const s = q.data?.series ?? [];
  const top = [...s].sort((a, b) => b.messages - a.messages)[0];
  return (
    <ChartCard
      id="busiest-hours"
      title="Busiest hours"
      description="Visitors' messages by weekday and hour"
      table={busiestHoursTable(s)}
      loading={q.isFetching}
      error={errorOf(q.error)}
    >
      <Heatmap
        cells={s}
        summary={
          top && top.messages
            ? `Busiest: ${DAY_NAMES[top.weekday - 1]} at ${top.hour}:00, ${top.messages} messages`
            : "No messages"
        }
      />
    </ChartCard>
  );
}

export function OperatorsCard({ appId, params }: Props) {
  const q = useReport(appId, "operators", params);
  const s = q.data?.series ?? [];
  return (
    <ChartCard
      id="operators"
      title="Operators"
      description="Conversations replied in, replies, and the median first response they gave"
      table={operatorsTable(s)}
      loading={q.isFetching}
      error={errorOf(q.error)}
    >
      <CategoryChart
        kind="bar"
        categories={s.map((o) => o.name)}
        series={[
          { label: "Conversations", color: VIOLET, values: s.map((o) => o.conversations) },
          { label: "Replies", color: BLUE, values: s.map((o) => o.replies) },
        ]}
        xLabel="Operator"
        yLabel="Count"
        summary={`${s.length} operators replied in the range`}
      />
    </ChartCard>
  );
}

export function LeadsCard({ appId, params }: Props) {
  const q = useReport(appId, "leads", params);
  const s = q.data?.series ?? [];
  return (
    <ChartCard
      id="leads"
      title="New leads"
      description="Leads by the day they were created (operator and channel do not apply)"
      table={leadsTable(s)}
      loading={q.isFetching}
      error={errorOf(q.error)}
    >
      <CategoryChart
        kind="bar"
        categories={s.map((d) => d.day)}
        series={[{ label: "New leads", color: VIOLET, values: s.map((d) => d.leads) }]}
        xLabel="Day"
        yLabel="Leads"
        summary={`${sum(s.map((d) => d.leads))} new leads over ${s.length} days`}
      />
    </ChartCard>
  );
}
