"use client";

import Link from "next/link";
import { Stars } from "@/components/csat/stars";
import { Time } from "@/components/ui/time";
import { UserText } from "@/components/ui/user-text";
import { plural } from "@/lib/client/format";
import { DEFAULT_FILTER, inboxSearch } from "@/lib/client/inbox/filters";
import type { ReportTable } from "@/lib/client/reports-csv";
import { useCsatReport } from "@/lib/client/use-csat-report";
import type { ReportParams } from "@/lib/client/use-report";
import type { CsatReport } from "@/lib/csat/schemas";
import { CategoryChart } from "./category-chart";
import { ChartCard } from "./chart-card";

const GREEN = "#047857";
const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);

const csatTable = (r: CsatReport | undefined): ReportTable => ({
  header: ["Day", "Ratings", "Good (4–5)", "Score"],
  rows: (r?.series ?? []).map((d) => [d.day, d.ratings, d.good, pct(d.score)]),
});

/**
 * Reports → CSAT: the score (share of 4–5 among ratings), the response rate (ratings of the requests made), the
 * score per day, per operator who closed, and the comments newest first, each linking to its conversation.
 */
export function CsatCard({ appId, params }: { appId: string; params: ReportParams }) {
  const q = useCsatReport(appId, params);
  const r = q.data;
  const s = r?.series ?? [];
  const figures = [
    { label: "score (4–5 of ratings)", value: pct(r?.score ?? null), id: "score" },
    { label: "response rate", value: pct(r?.response_rate ?? null), id: "response-rate" },
    {
      label: `${plural(r?.ratings ?? 0, "rating")} of ${r?.requests ?? 0} ${plural(r?.requests ?? 0, "request")}`,
      value: String(r?.ratings ?? 0),
      id: "ratings",
    },
  ];
  return (
    <ChartCard
      id="csat"
      title="Customer satisfaction (CSAT)"
      description="Visitors' ratings of closed conversations, per day in the app's time zone"
      headline={
        <div className="mt-3 flex flex-wrap gap-x-8 gap-y-2" data-testid="report-csat-headline">
          {figures.map((f) => (
            <p key={f.id} className="text-sm text-slate-600" data-testid={`report-csat-${f.id}`}>
              <span className="text-2xl font-semibold tabular-nums text-slate-900">{f.value}</span> {f.label}
            </p>
          ))}
        </div>
      }
      table={csatTable(r)}
      loading={q.isFetching}
      error={q.error ? `Could not load: ${q.error.message}` : null}
    >
      <CategoryChart
        kind="bar"
        categories={s.map((d) => d.day)}
        series={[
          { label: "Score (%)", color: GREEN, values: s.map((d) => d.score && Math.round(d.score * 100)) },
        ]}
        xLabel="Day"
        yLabel="Score (%)"
        summary={`Score ${pct(r?.score ?? null)} over ${r?.ratings ?? 0} ratings`}
      />
      {r && r.operators.length > 0 && (
        <table className="mt-4 w-full text-left text-sm" data-testid="report-csat-operators">
          <caption className="sr-only">CSAT per operator who closed</caption>
          <thead className="text-xs text-slate-600">
            <tr>
              <th scope="col">Operator</th>
              <th scope="col">Requests</th>
              <th scope="col">Ratings</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {r.operators.map((o) => (
              <tr key={String(o.admin)} className="border-t border-slate-100">
                <th scope="row" className="py-1 font-normal">
                  <UserText>{o.name}</UserText>
                </th>
                <td className="tabular-nums">{o.requests}</td>
                <td className="tabular-nums">{o.ratings}</td>
                <td className="tabular-nums">{pct(o.score)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {r && r.comments.length > 0 && (
        <ul className="mt-4 space-y-2" aria-label="Comments, newest first" data-testid="report-csat-comments">
          {r.comments.map((c) => (
            <li key={String(c.conversation)} className="rounded-lg bg-slate-50 px-3 py-2 text-sm">
              <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                <Stars rating={c.rating} className="text-sm" />
                <span>
                  <UserText>{c.user.name ?? c.user.email ?? `Visitor ${c.user.id}`}</UserText>
                </span>
                <Time seconds={c.rated} short />
                <Link
                  className="text-brand-700 underline-offset-2 hover:underline"
                  href={`/inbox${inboxSearch({ ...DEFAULT_FILTER, tab: "closed", selected: String(c.conversation) })}`}
                >
                  Open the conversation
                </Link>
              </div>
              <p className="mt-1 text-slate-800">
                <UserText>{c.comment}</UserText>
              </p>
            </li>
          ))}
        </ul>
      )}
    </ChartCard>
  );
}
