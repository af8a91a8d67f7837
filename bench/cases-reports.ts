import pg from "pg";
import { pgSession } from "../lib/db/client";
import { latencyCase, type Session, type Target } from "./harness";
import { explainAnalyze } from "./cases-leads";

/** A year of the dataset's history renders in < 300 ms p50; each series is one request of the page. */
const REPORT_P50: Target = { kind: "p50<", value: 300 };
const SERIES = ["conversations", "response_times", "busiest_hours", "operators", "leads"];
/** The report's own statements among those a request ran (not the key's or the app's lookups). */
const REPORT_SQL =
  /report_quarters|conversation_facts|conversation_closes|conversation_admin_replies|conversation_parts|report_filter_quarters|lead_quarters|FROM users u/;

/** EXPLAIN ANALYZE of the statements recorded from the label's first request, printed and kept. */
async function explain(s: Session, label: string) {
  const stmts = (s.rec.get(label)[0] ?? []).filter((x) => REPORT_SQL.test(x.text));
  const c = new pg.Client(pgSession(s.ds.url));
  await c.connect();
  try {
    const out = [];
    for (const stmt of stmts) {
      const plan = await explainAnalyze(c, stmt);
      console.log(
        `  EXPLAIN ${label} (${plan.executionMs} ms):\n${plan.plan.map((l) => `    ${l}`).join("\n")}`,
      );
      out.push(plan);
    }
    return out;
  } finally {
    await c.end();
  }
}

/** The filters measured: none, the admin assigned the most conversations, the channel with the most. */
async function filters(s: Session): Promise<{ label: string; query: string }[]> {
  const c = new pg.Client(pgSession(s.ds.url));
  await c.connect();
  try {
    const top = async (col: string) =>
      (
        await c.query<{ id: string }>(
          `SELECT ${col} AS id FROM conversations WHERE app_id = $1 AND ${col} IS NOT NULL
           GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
          [String(s.ds.appId)],
        )
      ).rows[0]?.id;
    const operator = await top("assignee_id");
    const channel = await top("channel_id");
    return [
      { label: "", query: "" },
      ...(operator ? [{ label: `, operator ${operator}`, query: `&operator=${operator}` }] : []),
      ...(channel ? [{ label: `, channel ${channel}`, query: `&channel=${channel}` }] : []),
    ];
  } finally {
    await c.end();
  }
}

export async function benchReports(s: Session): Promise<void> {
  // The dataset's conversations span the 180 days before its build: a year ending today covers all of them.
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  const n = Number(process.env.BENCH_N ?? 30);
  for (const f of await filters(s)) {
    for (const series of SERIES) {
      const label = `reports: ${series} (a year${f.label})`;
      const fig = await latencyCase(
        s,
        "reports",
        label,
        () => ({
          path: `/api/apps/${s.ds.appId}/reports/${series}?from=${from}&to=${to}${f.query}`,
          headers: s.auth,
        }),
        { target: REPORT_P50, n, warmup: 3 },
      );
      fig.extra = { ...fig.extra, explain: await explain(s, label) };
    }
  }
}
