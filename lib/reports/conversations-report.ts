import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import {
  byDay,
  dayIndex,
  envelopeOf,
  firstOwner,
  quartersExact,
  quartersFilter,
  quartersTable,
  reportRange,
  rollupUsable,
  workFilter,
  type ReportInput,
} from "./range";

/**
 * Conversations started (created) and closed (`closed` parts) per day of the app's zone: from the 15-minute
 * rollups (report_quarters, or report_filter_quarters by operator and channel), else, when the range's days are
 * not unions of buckets or an ID is below 1 (0 stands for none there), from the facts (conversation_facts,
 * conversation_closes) and their filters. The operator filter counts the starts of the conversations they first
 * owned and the closes they made (workFilter), whoever has the conversation now.
 */
export async function reportConversations(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const db = sqlOf(ctx.db);
  type Row = { i: number; started: number; closed: number };
  const rows = (await rollupUsable(db, r))
    ? await db.$queryRaw<Row[]>(Prisma.sql`
        SELECT ${dayIndex(r, Prisma.sql`x.at`)} AS i, sum(x.started)::int AS started, sum(x.closed)::int AS closed
        FROM (
          SELECT q.at, sum(q.started) AS started, sum(q.closed) AS closed FROM ${quartersTable(r)} q
          WHERE ${quartersFilter(r)}
          GROUP BY 1
        ) x
        GROUP BY 1`)
    : await db.$queryRaw<Row[]>(Prisma.sql`
          WITH s AS (
            SELECT ${dayIndex(r, Prisma.sql`f.started`)} AS i, count(*)::int AS n FROM conversation_facts f
            WHERE f.app_id = ${r.appId} AND f.started >= ${r.lo} AND f.started < ${r.hi}
              AND ${workFilter(r, firstOwner)}
            GROUP BY 1
          ), k AS (
            SELECT ${dayIndex(r, Prisma.sql`k.at`)} AS i, count(*)::int AS n
            FROM conversation_closes k JOIN conversation_facts f ON f.conversation_id = k.conversation_id
              JOIN conversation_parts p ON p.id = k.part_id
            WHERE k.app_id = ${r.appId} AND k.at >= ${r.lo} AND k.at < ${r.hi}
              AND ${workFilter(r, Prisma.sql`p.from_admin_id`)}
            GROUP BY 1
          )
          SELECT COALESCE(s.i, k.i) AS i, COALESCE(s.n, 0) AS started, COALESCE(k.n, 0) AS closed
          FROM s FULL JOIN k ON k.i = s.i`);
  const by = byDay(r, rows);
  return envelopeOf(
    r,
    r.days.map((day) => ({ day, started: by.get(day)?.started ?? 0, closed: by.get(day)?.closed ?? 0 })),
  );
}

/**
 * Users who are leads (the current rule), by the day they were created: from the 15-minute rollup lead_quarters,
 * or the users when the range's days are not unions of buckets. The operator and channel filters do not apply: a
 * lead belongs to no conversation.
 */
export async function reportLeads(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const db = sqlOf(ctx.db);
  const rows = await db.$queryRaw<{ i: number; n: number }[]>(
    (await quartersExact(db, r))
      ? Prisma.sql`
          SELECT ${dayIndex(r, Prisma.sql`q.at`)} AS i, sum(q.leads)::int AS n FROM lead_quarters q
          WHERE q.app_id = ${r.appId} AND q.at >= ${r.lo} AND q.at < ${r.hi}
          GROUP BY 1`
      : Prisma.sql`
          SELECT ${dayIndex(r, Prisma.sql`u.created`)} AS i, count(*)::int AS n FROM users u
          WHERE u.app_id = ${r.appId} AND u.is_lead AND u.created >= ${r.lo} AND u.created < ${r.hi}
          GROUP BY 1`,
  );
  const by = byDay(r, rows);
  return envelopeOf(
    r,
    r.days.map((day) => ({ day, leads: by.get(day)?.n ?? 0 })),
  );
}
