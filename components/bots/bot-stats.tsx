"use client";

import { CategoryChart } from "@/components/reports/category-chart";
import { ChartCard } from "@/components/reports/chart-card";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { UserText } from "@/components/ui/user-text";
import { formatCount } from "@/lib/client/format";
import type { BotStats as Stats, Step } from "@/lib/client/bots-types";
import type { ReportTable } from "@/lib/client/reports-csv";
import { useBotStats } from "@/lib/client/use-bot-stats";
import { allSteps } from "@/lib/bots/steps";
import { rate } from "@/components/messages/message-format";
import { STEP_LABEL } from "./bot-format";

// The Reports' colours, each at least 4.5:1 on white.
const BLUE = "#1d4ed8";
const GREEN = "#047857";
const AMBER = "#b45309";

export const botDailyTable = (days: Stats["days"]): ReportTable => ({
  header: ["Day (UTC)", "Started", "Running", "Handed over", "Closed", "Taken over"],
  rows: days.map((d) => [d.day, d.started, d.running, d.handed_over, d.closed, d.taken_over]),
});

/** What a step says or does, in a few words, to name it in the table. */
function stepText(s: Step | undefined): string {
  if (!s) return "";
  if ("body" in s && s.body) return s.body;
  if (s.type === "tag") return s.tag;
  return "";
}

/** A bot's statistics: runs per day by how they ended, and per step how many reached it and wait there. */
export function BotStats({ appId, botId, steps }: { appId: string; botId: string; steps: Step[] }) {
  const q = useBotStats(appId, botId);
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
  const byId = new Map(allSteps(steps).map((x) => [x.id, x]));
  return (
    <div className="space-y-4">
      <ChartCard
        id="bot-days"
        title="Runs per day"
        description="Runs by the day they started (UTC), counted by how they ended; days without runs are left out"
        table={botDailyTable(days)}
        loading={q.isFetching}
        error={null}
      >
        <CategoryChart
          kind="bar"
          categories={days.map((d) => d.day)}
          series={[
            { label: "Started", color: BLUE, values: days.map((d) => d.started) },
            { label: "Handed over", color: GREEN, values: days.map((d) => d.handed_over) },
            { label: "Taken over", color: AMBER, values: days.map((d) => d.taken_over) },
          ]}
          xLabel="Day"
          yLabel="Runs"
          summary={`${s.runs.started} runs started, ${s.runs.handed_over} handed over and ${s.runs.taken_over} taken over over ${days.length} days`}
        />
      </ChartCard>
      <section
        aria-labelledby="bot-steps-title"
        className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        aria-busy={q.isFetching}
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h2 id="bot-steps-title" className="text-sm font-semibold text-slate-900">
              Steps
            </h2>
            <p className="text-xs text-slate-600">
              How many runs reached each step, of those started, and how many wait there for the visitor now.
            </p>
          </div>
          <Button size="sm" variant="ghost" onClick={() => void q.refetch()} loading={q.isFetching}>
            Refresh
          </Button>
        </div>
        <table className="mt-3 w-full text-left text-sm tabular-nums" data-testid="bot-steps">
          <caption className="sr-only">Runs per step of the bot</caption>
          <thead className="text-xs text-slate-700">
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Step
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Reached
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Of started
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Waiting now
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-800">
            {s.steps.map((r) => {
              const step = byId.get(r.step);
              return (
                <tr key={r.step} data-step={r.step}>
                  <th scope="row" className="max-w-96 py-1.5 pr-3 font-normal break-words">
                    <span className="font-medium">{step ? STEP_LABEL[step.type] : r.step}</span>{" "}
                    <span className="text-slate-600">
                      <UserText>{stepText(step)}</UserText>
                    </span>
                  </th>
                  <td className="px-3 py-1.5 text-right">{formatCount(r.reached)}</td>
                  <td className="px-3 py-1.5 text-right">{rate(r.reached, s.runs.started)}</td>
                  <td className="px-3 py-1.5 text-right">{formatCount(r.waiting)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </div>
  );
}
