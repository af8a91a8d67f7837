import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { conversationFilter, dayOf, envelopeOf, reportRange, type ReportInput } from "./range";

/** Conversations started (created) and closed (`closed` parts) per day of the app's zone. */
export async function reportConversations(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const f = conversationFilter(r);
  const rows = await sqlOf(ctx.db).$queryRaw<{ day: string; started: number; closed: number }[]>(Prisma.sql`
    WITH s AS (
      SELECT ${dayOf(r, Prisma.sql`c.created`)} AS day, count(*)::int AS n FROM conversations c
      WHERE ${f} AND c.created >= ${r.lo} AND c.created < ${r.hi}
      GROUP BY 1
    ), k AS (
      SELECT ${dayOf(r, Prisma.sql`p.created`)} AS day, count(*)::int AS n
      FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
      WHERE p.app_id = ${r.appId} AND p.type = 'closed' AND p.created >= ${r.lo} AND p.created < ${r.hi} AND ${f}
      GROUP BY 1
    )
    SELECT COALESCE(s.day, k.day) AS day, COALESCE(s.n, 0) AS started, COALESCE(k.n, 0) AS closed
    FROM s FULL JOIN k ON k.day = s.day`);
  const by = new Map(rows.map((x) => [x.day, x]));
  return envelopeOf(
    r,
    r.days.map((day) => ({ day, started: by.get(day)?.started ?? 0, closed: by.get(day)?.closed ?? 0 })),
  );
}

/**
 * Users who are leads (the current rule), by the day they were created. The operator and channel filters do not
 * apply: a lead belongs to no conversation.
 */
export async function reportLeads(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const rows = await sqlOf(ctx.db).$queryRaw<{ day: string; n: number }[]>(Prisma.sql`
    SELECT ${dayOf(r, Prisma.sql`u.created`)} AS day, count(*)::int AS n FROM users u
    WHERE u.app_id = ${r.appId} AND u.is_lead AND u.created >= ${r.lo} AND u.created < ${r.hi}
    GROUP BY 1`);
  const by = new Map(rows.map((x) => [x.day, x.n]));
  return envelopeOf(
    r,
    r.days.map((day) => ({ day, leads: by.get(day) ?? 0 })),
  );
}
