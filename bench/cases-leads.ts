import pg from "pg";
import { latencyCase, type Session, type Target } from "./harness";

/**
 * Leads filters (GET /apps/{id}/users) on the dataset, each with the plan PostgreSQL chose for the product's
 * statement (EXPLAIN ANALYZE of the very SQL and parameters recorded from the request).
 */
const LEADS_P50: Target = { kind: "p50<", value: 100, source: "#5" };

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Filter?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  Plans?: PlanNode[];
}

/** What serves a plan: its top node, the index scans and sequential scans in it, and the execution time. */
export function summarize(plan: PlanNode, ms: number) {
  const scans: string[] = [];
  const walk = (n: PlanNode) => {
    if (n["Index Name"]) scans.push(`${n["Node Type"]} ${n["Index Name"]}`);
    else if (n["Node Type"] === "Seq Scan") scans.push(`Seq Scan ${n["Relation Name"]}`);
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(plan);
  return { top: plan["Node Type"], scans: [...new Set(scans)], executionMs: Math.round(ms * 10) / 10 };
}

/** The plan as indented lines (one execution serves both the summary and this). */
export function outline(n: PlanNode, depth = 0): string[] {
  const on = n["Index Name"]
    ? ` using ${n["Index Name"]}`
    : n["Relation Name"]
      ? ` on ${n["Relation Name"]}`
      : "";
  const rows = n["Actual Rows"] === undefined ? "" : ` (rows=${n["Actual Rows"]} loops=${n["Actual Loops"]})`;
  const cond = n.Filter ?? n["Index Cond"] ?? n["Recheck Cond"];
  return [
    `${"  ".repeat(depth)}${n["Node Type"]}${on}${rows}${cond ? ` [${cond}]` : ""}`,
    ...(n.Plans ?? []).flatMap((c) => outline(c, depth + 1)),
  ];
}

async function explain(s: Session, label: string) {
  const stmt = s.rec.get(label)[0]?.find((x) => /FROM users u WHERE/.test(x.text) && /LATERAL/.test(x.text));
  if (!stmt) return { error: "the leads statement was not recorded" };
  const c = new pg.Client({ connectionString: s.ds.url });
  await c.connect();
  try {
    const json = await c.query<{ "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${stmt.text}`,
      stmt.values,
    );
    const [root] = json.rows[0]!["QUERY PLAN"];
    return { ...summarize(root.Plan, root["Execution Time"]), plan: outline(root.Plan) };
  } finally {
    await c.end();
  }
}

export async function benchLeads(s: Session): Promise<void> {
  const at = new Date(s.ds.at);
  const daysAgo = (d: number) => new Date(at.getTime() - d * 86_400_000).toISOString().slice(0, 19);
  const checkout = s.ds.eventTypes.checkout_completed;
  const three = {
    type: "and",
    filters: [
      { property_name: "$country", type: "str_eq", value: { value: "United States" } },
      { property_name: "$sessions", type: "gte", value: { value: 2 } },
      { property_name: "$last_seen", type: "date_gt", value: { value: daysAgo(90) } },
    ],
  };
  const cases: { label: string; query: Record<string, string>; target?: Target }[] = [
    { label: "leads: no filter, first page", query: {} },
    {
      label: "leads: 3 conditions + sort, offset 0",
      query: { filters: JSON.stringify(three), sort_prop: "$last_seen", sort_order: "desc", offset: "0" },
      target: LEADS_P50,
    },
    {
      label: "leads: 3 conditions + sort, offset 9980",
      query: { filters: JSON.stringify(three), sort_prop: "$last_seen", sort_order: "desc", offset: "9980" },
      target: LEADS_P50,
    },
    {
      label: "leads: custom prop str_contains",
      query: {
        filters: JSON.stringify([
          { property_name: "company", type: "str_contains", value: { value: "tech" } },
        ]),
      },
    },
    {
      label: "leads: event count ≥ 2",
      query: {
        filters: JSON.stringify([
          { property_name: `$event_${checkout}_count`, type: "gte", value: { value: 2 } },
        ]),
        sort_prop: `$event_${checkout}_count`,
        sort_order: "desc",
      },
    },
  ];
  for (const c of cases) {
    const qs = new URLSearchParams({ limit: "20", ...c.query }).toString();
    const path = `/api/apps/${s.ds.appId}/users?${qs}`;
    const n = Number(process.env.BENCH_LEADS_N ?? 50);
    const f = await latencyCase(s, "leads", c.label, () => ({ path, headers: s.auth }), {
      n,
      warmup: 3,
      target: c.target,
    });
    const plan = await explain(s, c.label);
    f.extra = { explain: plan };
    if ("top" in plan)
      console.log(`    plan: ${plan.top} ← ${plan.scans.join(", ")} (${plan.executionMs} ms)`);
  }
}
