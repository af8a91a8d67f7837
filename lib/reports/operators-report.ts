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
  const rows = await sqlOf(ctx.db).$queryRaw<
    {
      admin: bigint;
      name: string;
      conversations: number;
      replies: number;
      first_response_count: number;
      first_response_median: number | null;
    }[]
  >(Prisma.sql`
    WITH per AS (
      SELECT x.admin_id, CASE WHEN x.first_at >= ${lo} AND x.last_at < ${hi} THEN x.replies ELSE (
          SELECT count(*)::int FROM conversation_parts p
          WHERE p.conversation_id = x.conversation_id AND p.type = 'reply_admin' AND p.from_admin_id = x.admin_id
            AND p.created >= ${lo} AND p.created < ${hi}
        ) END AS n
      FROM conversation_admin_replies x ${byChannel}
      WHERE x.app_id = ${r.appId} AND x.last_at >= ${lo} AND x.first_at < ${hi} AND ${op(Prisma.sql`x.admin_id`)}
    ), rep AS (
      SELECT admin_id, sum(n)::int AS replies, count(*) FILTER (WHERE n > 0)::int AS convs
      FROM per GROUP BY 1 HAVING sum(n) > 0
    ), frs AS (
      SELECT f.responder_id AS admin_id, count(*)::int AS n,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM f.answered_at - f.asked_at)::float8) AS median
      FROM conversation_facts f
      WHERE f.app_id = ${r.appId} AND f.started >= ${lo} AND f.started < ${hi} AND f.responder_id IS NOT NULL
        AND ${channel} AND ${op(Prisma.sql`f.responder_id`)}
      GROUP BY 1
    ), ids AS (SELECT admin_id FROM rep UNION SELECT admin_id FROM frs)
    SELECT a.id AS admin, a.name, COALESCE(rep.convs, 0) AS conversations, COALESCE(rep.replies, 0) AS replies,
      COALESCE(frs.n, 0) AS first_response_count, frs.median AS first_response_median
    FROM ids JOIN admins a ON a.id = ids.admin_id
    LEFT JOIN rep ON rep.admin_id = ids.admin_id LEFT JOIN frs ON frs.admin_id = ids.admin_id
    ORDER BY replies DESC, a.id`);
  return envelopeOf(r, rows);
}
