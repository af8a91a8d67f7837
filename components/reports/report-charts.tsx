"use client";

import {
  busiestHoursTable,
  conversationsTable,
  DAY_NAMES,
  leadsTable,
  operatorsTable,
  responseTimesTable,
} from "@/lib/client/reports-csv";
import { usePreviousReport } from "@/lib/client/use-previous-report";
import { useReport, type ReportOf, type ReportParams } from "@/lib/client/use-report";
import type { ReportSeries } from "@/lib/reports/schemas";
import { CategoryChart } from "./category-chart";
import { ChartCard } from "./chart-card";
import { Headline } from "./headline";
import {
  busiestHoursFigures,
  conversationsFigures,
  headlineOf,
  leadsFigures,
  operatorsFigures,
  responseTimesFigures,
  type Figure,
} from "./headlines";
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

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface Query<R> {
  data: R | undefined;
  isFetching: boolean;
  error: Error | null;
}

/**
 * What every card takes from its two queries, the range's and the previous period's. A failed previous period
 * only leaves the change out: the range's own figures are still right.
 */
function cardOf<R extends ReportOf[ReportSeries]>(q: Query<R>, prev: Query<R>, figures: (r: R) => Figure[]) {
  const series: R["series"] = q.data?.series ?? [];
  return {
    s: series,
    headline: {
      figures: headlineOf(q.data, prev.data, figures),
      from: q.data?.from ?? "",
      to: q.data?.to ?? "",
    },
    loading: q.isFetching || prev.isFetching,
    error: q.error ? `Could not load: ${q.error.message}` : null,
  };
}

export function ConversationsCard({ appId, params }: Props) {
  const c = cardOf(
    useReport(appId, "conversations", params),
    usePreviousReport(appId, "conversations", params),
    conversationsFigures,
  );
  const s = c.s;
  return (
    <ChartCard
      id="conversations"
      title="Conversations started and closed"
      description="Per day in the app's time zone"
      headline={<Headline id="conversations" {...c.headline} />}
      table={conversationsTable(s)}
      loading={c.loading}
      error={c.error}
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
  const c = cardOf(
    useReport(appId, "response_times", params),
    usePreviousReport(appId, "response_times", params),
    (r) => responseTimesFigures(r, which),
  );
  const s = c.s;
  const first = which === "first_response";
  const id = first ? "first-response" : "time-to-close";
  const pick = (d: (typeof s)[number]) =>
    first
      ? { n: d.first_response_count, m: d.first_response_median, p: d.first_response_p90 }
      : { n: d.close_count, m: d.close_median, p: d.close_p90 };
  return (
    <ChartCard
      id={id}
      title={first ? "First response time" : "Time to close"}
      description={
        first
          ? "Visitor's first message to the first operator reply, by the day the conversation started"
          : "Conversation start to each close, by the day of the close"
      }
      headline={<Headline id={id} good="down" {...c.headline} />}
      table={responseTimesTable(s, which)}
      loading={c.loading}
      error={c.error}
    >
      <CategoryChart
        kind="line"
        durations
        categories={s.map((d) => d.day)}
        series={[
          { label: "Median", color: first ? BLUE : GREEN, values: s.map((d) => pick(d).m) },
          { label: "90th percentile", color: AMBER, values: s.map((d) => pick(d).p) },
        ]}
        xLabel="Day"
        yLabel="Time"
        summary={`${first ? "First response" : "Time to close"}: median and 90th percentile per day, ${sum(s.map((d) => pick(d).n))} samples`}
      />
    </ChartCard>
  );
}

export function BusiestHoursCard({ appId, params }: Props) {
  const c = cardOf(
    useReport(appId, "busiest_hours", params),
    usePreviousReport(appId, "busiest_hours", params),
    busiestHoursFigures,
  );
  const s = c.s;
  const top = [...s].sort((a, b) => b.messages - a.messages)[0];
  return (
    <ChartCard
      id="busiest-hours"
      title="Busiest hours"
      description="Visitors' messages by weekday and hour"
      headline={<Headline id="busiest-hours" {...c.headline} />}
      table={busiestHoursTable(s)}
      loading={c.loading}
      error={c.error}
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
  const c = cardOf(
    useReport(appId, "operators", params),
    usePreviousReport(appId, "operators", params),
    operatorsFigures,
  );
  const s = c.s;
  return (
    <ChartCard
      id="operators"
      title="Operators"
      description="Conversations replied in, replies, and the median first response they gave"
      headline={<Headline id="operators" {...c.headline} />}
      table={operatorsTable(s)}
      loading={c.loading}
      error={c.error}
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
  const c = cardOf(
    useReport(appId, "leads", params),
    usePreviousReport(appId, "leads", params),
    leadsFigures,
  );
  const s = c.s;
  return (
    <ChartCard
      id="leads"
      title="New leads"
      description="Leads by the day they were created (operator and channel do not apply)"
      headline={<Headline id="leads" good="up" {...c.headline} />}
      table={leadsTable(s)}
      loading={c.loading}
      error={c.error}
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
