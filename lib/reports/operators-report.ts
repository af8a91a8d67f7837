import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { envelopeOf, reportRange, type ReportInput } from "./range";

/**
 * Per operator who replied in the range: conversations replied in and replies (`reply_admin` parts in the range),
 * and the first responses they gave to conversations started in the range (count, median seconds). Here the
 * operator filter keeps that operator's row (the author), the channel filter the conversations of the channel.
 *
 * Replies come from conversation_admin_replies, one row per operator and conversation with the span of their
 * replies: a span inside the range counts as is; only the few cut by an end of the range are counted from the
 * parts (distinct conversations do not add up over buckets, so a rollup could not answer them).
 */
export async function reportOperators(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const { lo, hi } = r;
  const channel = r.channel === null ? Prisma.sql`TRUE` : Prisma.sql`f.channel_id = ${r.channel}`;
  const byChannel =
    r.channel === null
      ? Prisma.empty
      : Prisma.sql`JOIN conversation_facts f ON f.conversation_id = x.conversation_id AND ${channel}`;
  const op = (col: Prisma.Sql) =>
    r.operator === null ? Prisma.sql`TRUE` : Prisma.sql`${col} = ${r.operator}`;
  const db = sqlOf(ctx.db);
  // Two statements at once (on PostgreSQL, two connections of the pool): each scans its own table.
  const [rep, frs] = await Promise.all([
    db.$queryRaw<{ admin: bigint; name: string; replies: number; convs: number }[]>(Prisma.sql`
      WITH per AS (
        SELECT x.admin_id, CASE WHEN x.first_at >= ${lo} AND x.last_at < ${hi} THEN x.replies ELSE (
            SELECT count(*)::int FROM conversation_parts p
            WHERE p.conversation_id = x.conversation_id AND p.type = 'reply_admin' AND p.sent_via <> 'bot'
              AND p.from_admin_id = x.admin_id AND p.created >= ${lo} AND p.created < ${hi}
          ) END AS n
        FROM conversation_admin_replies x ${byChannel}
        WHERE x.app_id = ${r.appId} AND x.last_at >= ${lo} AND x.first_at < ${hi} AND ${op(Prisma.sql`x.admin_id`)}
      ), rep AS (
        SELECT admin_id, sum(n)::int AS replies, count(*) FILTER (WHERE n > 0)::int AS convs
        FROM per GROUP BY 1 HAVING sum(n) > 0
      )
      SELECT a.id AS admin, a.name, rep.replies, rep.convs FROM rep JOIN admins a ON a.id = rep.admin_id`),
    db.$queryRaw<{ admin: bigint; name: string; n: number; median: number | null }[]>(Prisma.sql`
      WITH frs AS (
        SELECT f.responder_id AS admin_id, count(*)::int AS n,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM f.answered_at - f.asked_at)::float8)
            AS median
        FROM conversation_facts f
        WHERE f.app_id = ${r.appId} AND f.started >= ${lo} AND f.started < ${hi} AND f.responder_id IS NOT NULL
          AND ${channel} AND ${op(Prisma.sql`f.responder_id`)}
        GROUP BY 1
      )
      SELECT a.id AS admin, a.name, frs.n, frs.median FROM frs JOIN admins a ON a.id = frs.admin_id`),
  ]);
  const first = new Map(frs.map((x) => [x.admin, x]));
  const rows = [
    ...rep.map((x) => ({ ...x, fr: first.get(x.admin) })),
    ...frs
      .filter((x) => !rep.some((y) => y.admin === x.admin))
      .map((x) => ({ ...x, replies: 0, convs: 0, fr: x })),
  ]
    .map((x) => ({
      admin: x.admin,
      name: x.name,
      conversations: x.convs,
      replies: x.replies,
      first_response_count: x.fr?.n ?? 0,
      first_response_median: x.fr?.median ?? null,
    }))
    .sort((a, b) => b.replies - a.replies || (a.admin < b.admin ? -1 : a.admin > b.admin ? 1 : 0));
  return envelopeOf(r, rows);
}
