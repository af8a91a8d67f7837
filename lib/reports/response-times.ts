import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { byDay, dayIndex, envelopeOf, reportRange, workFilter, type ReportInput } from "./range";

interface Row {
  /** The day's index; null on the row of the whole range. */
  i: number | null;
  n: number;
  median: number | null;
  p90: number | null;
  average: number | null;
}

const stats = (col: Prisma.Sql) => Prisma.sql`count(*)::int AS n,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY ${col}) AS median,
  percentile_cont(0.9) WITHIN GROUP (ORDER BY ${col}) AS p90,
  avg(${col}) AS average`;

// The days and the whole range in one scan: a range's median is not found from its days' medians.
const daysAndRange = Prisma.sql`GROUPING SETS ((1), ())`;

const isDay = (x: Row): x is Row & { i: number } => x.i !== null;

const summaryOf = (rows: Row[]) => {
  const all = rows.find((x) => x.i === null);
  return { count: all?.n ?? 0, median: all?.median ?? null, average: all?.average ?? null };
};

/**
 * Per day, in seconds, median and 90th percentile (continuous, interpolated), exact from per-conversation facts
 * (percentiles do not add up, so no rollup can hold them):
 * - first response, by the day the conversation started: from the visitor's first message to the first operator
 *   reply at or after it (conversation_facts);
 * - time to close, each `closed` part by its day: from the conversation's start to that part (conversation_closes).
 * The summary holds both over the whole range (count, median, average), what the panel's headline shows.
 * The operator filter keeps the first responses they gave and the closes they made (workFilter).
 */
export async function reportResponseTimes(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const db = sqlOf(ctx.db);
  // Two statements at once: on PostgreSQL they run on two connections of the pool.
  const [first, close] = await Promise.all([
    db.$queryRaw<Row[]>(Prisma.sql`
    SELECT ${dayIndex(r, Prisma.sql`f.started`)} AS i,
      ${stats(Prisma.sql`extract(epoch FROM f.answered_at - f.asked_at)::float8`)}
    FROM conversation_facts f
    WHERE f.app_id = ${r.appId} AND f.started >= ${r.lo} AND f.started < ${r.hi} AND f.answered_at IS NOT NULL
      AND ${workFilter(r, Prisma.sql`f.responder_id`)}
    GROUP BY ${daysAndRange}`),
    db.$queryRaw<Row[]>(Prisma.sql`
    SELECT ${dayIndex(r, Prisma.sql`k.at`)} AS i, ${stats(Prisma.sql`extract(epoch FROM k.at - k.started)::float8`)}
    FROM conversation_closes k
    ${r.channel === null ? Prisma.empty : Prisma.sql`JOIN conversation_facts f ON f.conversation_id = k.conversation_id`}
    ${r.operator === null ? Prisma.empty : Prisma.sql`JOIN conversation_parts p ON p.id = k.part_id`}
    WHERE k.app_id = ${r.appId} AND k.at >= ${r.lo} AND k.at < ${r.hi}
      AND ${workFilter(r, Prisma.sql`p.from_admin_id`)}
    GROUP BY ${daysAndRange}`),
  ]);
  const fb = byDay(r, first.filter(isDay));
  const cb = byDay(r, close.filter(isDay));
  const days = envelopeOf(
    r,
    r.days.map((day) => {
      const a = fb.get(day);
      const b = cb.get(day);
      return {
        day,
        first_response_count: a?.n ?? 0,
        first_response_median: a?.median ?? null,
        first_response_p90: a?.p90 ?? null,
        close_count: b?.n ?? 0,
        close_median: b?.median ?? null,
        close_p90: b?.p90 ?? null,
      };
    }),
  );
  return { ...days, summary: { first_response: summaryOf(first), close: summaryOf(close) } };
}
