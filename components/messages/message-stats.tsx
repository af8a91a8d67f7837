"use client";

import { CategoryChart } from "@/components/reports/category-chart";
import { ChartCard } from "@/components/reports/chart-card";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { formatCount } from "@/lib/client/format";
import type { MessageStats as Stats } from "@/lib/client/messages-types";
import type { ReportTable } from "@/lib/client/reports-csv";
import { useMessageStats } from "@/lib/client/use-message-stats";
import { lift, rate } from "./message-format";

// The Reports' colours, each at least 4.5:1 on white.
const BLUE = "#1d4ed8";
const GREEN = "#047857";
const VIOLET = "#6d28d9";

type Figure = keyof Stats["sent"];
/** The rows of the figures table; a control group is never shown the message, so only reach and goal apply. */
const ROWS: { key: Figure; label: string; control: boolean }[] = [
  { key: "sent", label: "Reached (sent, or held back)", control: true },
  { key: "read", label: "Read", control: false },
  { key: "clicked", label: "Clicked", control: false },
  { key: "replied", label: "Replied", control: false },
  { key: "unsubscribed", label: "Unsubscribed", control: false },
  { key: "goal", label: "Goal reached", control: true },
];

export const dailyTable = (days: Stats["days"]): ReportTable => ({
  header: ["Day (UTC)", "Sent", "Read", "Replied", "Goal", "Control held back", "Control goal"],
  rows: days.map((d) => [
    d.day,
    d.sent.sent,
    d.sent.read,
    d.sent.replied,
    d.sent.goal,
    d.control.sent,
    d.control.goal,
  ]),
});

/** A message's statistics: its figures beside the control group's, the goal's lift, and a chart per day. */
export function MessageStats({ appId, messageId }: { appId: string; messageId: string }) {
  const q = useMessageStats(appId, messageId);
  if (q.isPending) return <Spinner label="Loading statistics" />;
  if (q.isError)
    return (
      <div className="space-y-3">
        <ErrorAlert error={q.error} title="Can’t load the statistics" />
        <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
          Try again
        </Button>
      </div>
    );
  const s = q.data;
  const days = s.days;
  const sum = (k: Figure) => days.reduce((n, d) => n + d.sent[k], 0);
  return (
    <div className="space-y-4">
      <section
        aria-labelledby="message-figures-title"
        className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        aria-busy={q.isFetching}
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h2 id="message-figures-title" className="text-sm font-semibold text-slate-900">
              Figures
            </h2>
            <p className="text-xs text-slate-600">
              Exact counts since the message was made; rates are of the users reached.
            </p>
          </div>
          <Button size="sm" variant="ghost" onClick={() => void q.refetch()} loading={q.isFetching}>
            Refresh
          </Button>
        </div>
        <table className="mt-3 w-full text-left text-sm tabular-nums" data-testid="message-figures">
          <caption className="sr-only">The message's figures and the control group's</caption>
          <thead className="text-xs text-slate-700">
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                <span className="sr-only">Figure</span>
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Message
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Rate
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Control group
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Control rate
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-800">
            {ROWS.map((r) => (
              <tr key={r.key} data-figure={r.key}>
                <th scope="row" className="py-1.5 pr-3 font-medium">
                  {r.label}
                </th>
                <td className="px-3 py-1.5 text-right">{formatCount(s.sent[r.key])}</td>
                <td className="px-3 py-1.5 text-right">
                  {r.key === "sent" ? "" : rate(s.sent[r.key], s.sent.sent)}
                </td>
                <td className="px-3 py-1.5 text-right">{r.control ? formatCount(s.control[r.key]) : "—"}</td>
                <td className="px-3 py-1.5 text-right">
                  {r.control && r.key !== "sent" ? rate(s.control[r.key], s.control.sent) : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-3 text-sm text-slate-800" data-testid="goal-lift">
          Goal lift: <span className="font-semibold tabular-nums">{lift(s.goal_lift)}</span>
          <span className="text-slate-600">
            {s.goal_lift === null
              ? " (needs users in both the message's group and the control group)"
              : " (goal rate of the message's group minus the control group's, in percentage points)"}
          </span>
        </p>
      </section>
      <ChartCard
        id="message-days"
        title="Sent, read and replied per day"
        description="Days in UTC; days without any event are left out"
        table={dailyTable(days)}
        loading={q.isFetching}
        error={null}
      >
        <CategoryChart
          kind="bar"
          categories={days.map((d) => d.day)}
          series={[
            { label: "Sent", color: BLUE, values: days.map((d) => d.sent.sent) },
            { label: "Read", color: GREEN, values: days.map((d) => d.sent.read) },
            { label: "Replied", color: VIOLET, values: days.map((d) => d.sent.replied) },
          ]}
          xLabel="Day"
          yLabel="Users"
          summary={`${sum("sent")} sent, ${sum("read")} read and ${sum("replied")} replied over ${days.length} days`}
        />
      </ChartCard>
    </div>
  );
}
