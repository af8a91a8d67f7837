import pg from "pg";
import { pgSession } from "../lib/db/client";
import { Prisma } from "../lib/db/generated/client";
import { compileFilters } from "../lib/leads/compile";
import { parseFilters } from "../lib/leads/filters";
import { latencyCase, type Session, type Target } from "./harness";
import { BENCH_SEGMENT, leadsFilterCases } from "./leads-filters";
import { call } from "./load";

/**
 * Leads filters (GET /apps/{id}/users) on the dataset: every filter kind of the grammar (bench/leads-filters.ts) at
 * the first page and at offset 9,980, each with the plan PostgreSQL chose for the product's statement (EXPLAIN
 * ANALYZE, BUFFERS of the very SQL and parameters recorded from the request) and a check that its `total` is exact:
 * the same filters counted with every index turned off.
 */
const LEADS_P50: Target = { kind: "p50<", value: 50 };
const OFFSETS = [0, 9980];

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Actual Total Time"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Filter?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  "Hash Cond"?: string;
  Plans?: PlanNode[];
}

/** What serves a plan: its top node, the index scans and sequential scans in it, the execution time and buffers. */
export function summarize(plan: PlanNode, ms: number) {
  const scans: string[] = [];
  const walk = (n: PlanNode) => {
    if (n["Index Name"]) scans.push(`${n["Node Type"]} ${n["Index Name"]}`);
    else if (n["Node Type"] === "Seq Scan") scans.push(`Seq Scan ${n["Relation Name"]}`);
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(plan);
  return {
    top: plan["Node Type"],
    scans: [...new Set(scans)],
    executionMs: Math.round(ms * 10) / 10,
    buffers: { hit: plan["Shared Hit Blocks"] ?? 0, read: plan["Shared Read Blocks"] ?? 0 },
  };
}

/** The plan as indented lines (one execution serves both the summary and this). */
export function outline(n: PlanNode, depth = 0): string[] {
  const on = n["Index Name"]
    ? ` using ${n["Index Name"]}`
    : n["Relation Name"]
      ? ` on ${n["Relation Name"]}`
      : "";
  const rows =
    n["Actual Rows"] === undefined
      ? ""
      : ` (rows=${n["Actual Rows"]} loops=${n["Actual Loops"]} ${n["Actual Total Time"]?.toFixed(1)} ms)`;
  const cond = n.Filter ?? n["Index Cond"] ?? n["Recheck Cond"] ?? n["Hash Cond"];
  return [
    `${"  ".repeat(depth)}${n["Node Type"]}${on}${rows}${cond ? ` [${cond}]` : ""}`,
    ...(n.Plans ?? []).flatMap((c) => outline(c, depth + 1)),
  ];
}

/** A recorded statement run again under EXPLAIN ANALYZE: its summary and its plan's outline. */
export async function explainAnalyze(c: pg.Client, stmt: { text: string; values?: unknown[] }) {
  const json = await c.query<{ "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${stmt.text}`,
    stmt.values,
  );
  const [root] = json.rows[0]!["QUERY PLAN"];
  return { ...summarize(root.Plan, root["Execution Time"]), plan: outline(root.Plan) };
}

async function explain(s: Session, label: string) {
  const stmt = s.rec.get(label)[0]?.find((x) => /FROM users u WHERE/.test(x.text) && /LATERAL/.test(x.text));
  if (!stmt) return { error: "the leads statement was not recorded" };
  const c = new pg.Client(pgSession(s.ds.url));
  await c.connect();
  try {
    return await explainAnalyze(c, stmt);
  } finally {
    await c.end();
  }
}

/**
 * The filters' count with no index at all, and custom props read from their JSON (not the kept user_prop_values):
 * what an exact `total` must equal.
 */
async function countWithoutIndexes(s: Session, filters: unknown): Promise<number> {
  const appId = s.ds.appId;
  const where =
    filters === undefined
      ? Prisma.sql`TRUE`
      : await compileFilters(parseFilters(filters), { db: s.db.db, appId, typedProps: false });
  const [row] = await s.db.db.$transaction(
    async (tx) => {
      for (const off of ["enable_indexscan", "enable_bitmapscan", "enable_indexonlyscan"])
        await tx.$executeRawUnsafe(`SET LOCAL ${off} = off`);
      return tx.$queryRaw<{ n: number }[]>(
        Prisma.sql`SELECT count(*)::int AS n FROM users u WHERE u.app_id = ${appId} AND u.is_lead AND ${where}`,
      );
    },
    // A scan of every user: seconds at 5M, past Prisma's 5 s default for a transaction.
    { timeout: 600_000 },
  );
  return row?.n ?? -1;
}

async function ensureSegment(s: Session): Promise<void> {
  const found = await s.db.db.segment.findFirst({ where: { appId: s.ds.appId, name: BENCH_SEGMENT.name } });
  if (!found)
    await s.db.db.segment.create({
      data: {
        appId: s.ds.appId,
        name: BENCH_SEGMENT.name,
        filters: BENCH_SEGMENT.filters as Prisma.InputJsonValue,
      },
    });
}

export async function benchLeads(s: Session): Promise<void> {
  await ensureSegment(s);
  const n = Number(process.env.BENCH_LEADS_N ?? 30);
  // Labels holding any of BENCH_LEADS_ONLY's `|`-separated parts.
  const only = process.env.BENCH_LEADS_ONLY?.split("|");
  for (const fc of leadsFilterCases(s.ds)) {
    if (only && !only.some((o) => fc.label.includes(o))) continue;
    const query: Record<string, string> = { limit: "20" };
    if (fc.filters !== undefined) query.filters = JSON.stringify(fc.filters);
    if (fc.sort) Object.assign(query, { sort_prop: fc.sort.prop, sort_order: fc.sort.order });
    let expected: number | undefined;
    for (const offset of OFFSETS) {
      const path = `/api/apps/${s.ds.appId}/users?${new URLSearchParams({ ...query, offset: String(offset) })}`;
      const label = `leads: ${fc.label}, offset ${offset}`;
      const f = await latencyCase(s, "leads", label, () => ({ path, headers: s.auth }), {
        n,
        warmup: 3,
        target: LEADS_P50,
      });
      const { total } = await call<{ total: number }>(s.api.url, { path, headers: s.auth });
      expected ??= await countWithoutIndexes(s, fc.filters);
      const plan = await explain(s, label);
      f.extra = { ...f.extra, total, exact: total === expected, explain: plan };
      console.log(
        `    total ${total}${total === expected ? " (exact)" : ` NOT EXACT: a scan counts ${expected}`}`,
      );
      if ("top" in plan) {
        console.log(
          `    plan: ${plan.top} ← ${plan.scans.join(", ")} (${plan.executionMs} ms, ` +
            `buffers hit ${plan.buffers.hit} read ${plan.buffers.read})`,
        );
        for (const l of plan.plan.slice(0, 8))
          console.log(`      ${l.length > 200 ? `${l.slice(0, 199)}…` : l}`);
      }
    }
  }
}
