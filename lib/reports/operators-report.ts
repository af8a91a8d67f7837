import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { firstResponses } from "./first-response";
import { envelopeOf, reportRange, type ReportInput } from "./range";

/**
 * Per operator who replied in the range: conversations replied in and replies (`reply_admin` parts in the range),
 * and the first responses they gave to conversations started in the range (count, median seconds). Here the
 * operator filter keeps that operator's row (the author), the channel filter the conversations of the channel.
 */
export async function reportOperators(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const channel = r.channel === null ? Prisma.sql`TRUE` : Prisma.sql`c.channel_id = ${r.channel}`;
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
    WITH ${firstResponses(r, Prisma.sql`c.app_id = ${r.appId} AND ${channel}`)},
    rep AS (
      SELECT p.from_admin_id AS admin_id, count(*)::int AS replies, count(DISTINCT p.conversation_id)::int AS convs
      FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
      WHERE p.app_id = ${r.appId} AND p.type = 'reply_admin' AND p.created >= ${r.lo} AND p.created < ${r.hi}
        AND p.from_admin_id IS NOT NULL AND ${channel} AND ${op(Prisma.sql`p.from_admin_id`)}
      GROUP BY 1
    ), frs AS (
      SELECT fr.admin_id, count(*)::int AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY fr.secs) AS median
      FROM fr WHERE fr.admin_id IS NOT NULL AND ${op(Prisma.sql`fr.admin_id`)}
      GROUP BY 1
    ), ids AS (SELECT admin_id FROM rep UNION SELECT admin_id FROM frs)
    SELECT a.id AS admin, a.name, COALESCE(rep.convs, 0) AS conversations, COALESCE(rep.replies, 0) AS replies,
      COALESCE(frs.n, 0) AS first_response_count, frs.median AS first_response_median
    FROM ids JOIN admins a ON a.id = ids.admin_id
    LEFT JOIN rep ON rep.admin_id = ids.admin_id LEFT JOIN frs ON frs.admin_id = ids.admin_id
    ORDER BY replies DESC, a.id`);
  return envelopeOf(r, rows);
}
