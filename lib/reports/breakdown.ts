import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { envelopeOf, firstOwner, reportRange, rollupUsable, workFilter, type ReportInput } from "./range";
import type { BreakdownBy } from "./schemas";

interface Counts {
  key: string | null;
  started: number;
  closed: number;
}
interface Firsts {
  key: string | null;
  n: number;
  median: number | null;
}

const firstResponseStats = Prisma.sql`count(*)::int AS n,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM f.answered_at - f.asked_at)::float8) AS median`;

/**
 * Conversations started and closed and the median first response over the range, per channel or per tag, with
 * the report filters (the operator's work: workFilter).
 * - By channel: the counts from the 15-minute rollup by operator and channel (report_filter_quarters), like the
 *   filtered conversations report; the median from the facts of the conversations started in the range.
 * - By tag: a conversation counts under each tag it has (the tags it carries now: tags come and go, no rollup can
 *   follow them), so the rows add up to more than the total when conversations carry several; those without one
 *   make the row of key null. Read from the facts and closes of the range, as the response-times report is.
 */
export async function reportBreakdown(ctx: Ctx, input: ReportInput & { by: BreakdownBy }) {
  const r = await reportRange(ctx, input);
  const db = sqlOf(ctx.db);
  const closer = workFilter(r, Prisma.sql`p.from_admin_id`);
  const started = Prisma.sql`f.app_id = ${r.appId} AND f.started >= ${r.lo} AND f.started < ${r.hi}`;
  // Two statements at once (on PostgreSQL, two connections of the pool).
  const [counts, firsts] =
    input.by === "channel"
      ? await Promise.all([
          (await rollupUsable(db, r))
            ? db.$queryRaw<Counts[]>(Prisma.sql`
                SELECT NULLIF(q.channel_id, 0)::text AS key, sum(q.started)::int AS started,
                  sum(q.closed)::int AS closed
                FROM report_filter_quarters q
                WHERE q.app_id = ${r.appId} AND q.at >= ${r.lo} AND q.at < ${r.hi}
                  ${r.operator === null ? Prisma.empty : Prisma.sql`AND q.assignee_id = ${r.operator}`}
                  ${r.channel === null ? Prisma.empty : Prisma.sql`AND q.channel_id = ${r.channel}`}
                GROUP BY 1`)
            : db.$queryRaw<Counts[]>(Prisma.sql`
                WITH s AS (
                  SELECT f.channel_id, count(*)::int AS n FROM conversation_facts f
                  WHERE ${started} AND ${workFilter(r, firstOwner)} GROUP BY 1
                ), k AS (
                  SELECT f.channel_id, count(*)::int AS n
                  FROM conversation_closes k JOIN conversation_facts f ON f.conversation_id = k.conversation_id
                    JOIN conversation_parts p ON p.id = k.part_id
                  WHERE k.app_id = ${r.appId} AND k.at >= ${r.lo} AND k.at < ${r.hi} AND ${closer} GROUP BY 1
                )
                SELECT x.key::text AS key, sum(x.s)::int AS started, sum(x.k)::int AS closed FROM (
                  SELECT channel_id, n, 0 FROM s UNION ALL SELECT channel_id, 0, n FROM k
                ) x(key, s, k)
                GROUP BY 1`),
          db.$queryRaw<Firsts[]>(Prisma.sql`
            SELECT f.channel_id::text AS key, ${firstResponseStats} FROM conversation_facts f
            WHERE ${started} AND f.answered_at IS NOT NULL AND ${workFilter(r, Prisma.sql`f.responder_id`)}
            GROUP BY 1`),
        ])
      : await Promise.all([
          db.$queryRaw<Counts[]>(Prisma.sql`
            WITH s AS (
              SELECT t.tag, count(*)::int AS n
              FROM conversation_facts f JOIN conversations c ON c.id = f.conversation_id
                LEFT JOIN LATERAL unnest(c.tags) AS t(tag) ON true
              WHERE ${started} AND ${workFilter(r, firstOwner)} GROUP BY 1
            ), k AS (
              SELECT t.tag, count(*)::int AS n
              FROM conversation_closes k JOIN conversation_facts f ON f.conversation_id = k.conversation_id
                JOIN conversation_parts p ON p.id = k.part_id JOIN conversations c ON c.id = k.conversation_id
                LEFT JOIN LATERAL unnest(c.tags) AS t(tag) ON true
              WHERE k.app_id = ${r.appId} AND k.at >= ${r.lo} AND k.at < ${r.hi} AND ${closer} GROUP BY 1
            )
            SELECT x.key, sum(x.s)::int AS started, sum(x.k)::int AS closed FROM (
              SELECT tag, n, 0 FROM s UNION ALL SELECT tag, 0, n FROM k
            ) x(key, s, k)
            GROUP BY 1`),
          db.$queryRaw<Firsts[]>(Prisma.sql`
            SELECT t.tag AS key, ${firstResponseStats}
            FROM conversation_facts f JOIN conversations c ON c.id = f.conversation_id
              LEFT JOIN LATERAL unnest(c.tags) AS t(tag) ON true
            WHERE ${started} AND f.answered_at IS NOT NULL AND ${workFilter(r, Prisma.sql`f.responder_id`)}
            GROUP BY 1`),
        ]);
  const keys = [...new Set([...counts, ...firsts].map((x) => x.key))];
  const names =
    input.by === "channel"
      ? new Map(
          (
            await ctx.db.channel.findMany({
              where: { appId: r.appId, id: { in: keys.flatMap((k) => (k === null ? [] : [BigInt(k)])) } },
              select: { id: true, name: true },
            })
          ).map((c) => [String(c.id), c.name]),
        )
      : new Map<string, string>();
  const count = new Map(counts.map((x) => [x.key, x]));
  const first = new Map(firsts.map((x) => [x.key, x]));
  const rows = keys
    .map((key) => ({
      key,
      name: key === null ? "" : input.by === "channel" ? (names.get(key) ?? `#${key}`) : key,
      started: count.get(key)?.started ?? 0,
      closed: count.get(key)?.closed ?? 0,
      first_response_count: first.get(key)?.n ?? 0,
      first_response_median: first.get(key)?.median ?? null,
    }))
    .filter((x) => x.started || x.closed || x.first_response_count)
    // Busiest first; the row of none last among equals, then by name.
    .sort(
      (a, b) =>
        b.started - a.started ||
        b.closed - a.closed ||
        Number(a.key === null) - Number(b.key === null) ||
        a.name.localeCompare(b.name),
    );
  return { ...envelopeOf(r, rows), by: input.by };
}
