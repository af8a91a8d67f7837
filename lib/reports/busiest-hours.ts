import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { conversationFilter, envelopeOf, quartersExact, reportRange, type ReportInput } from "./range";

/**
 * Visitors' messages (`reply_user` parts) by ISO weekday and hour of the app's zone: all 168 cells, from the
 * 15-minute rollups (a bucket lies within one hour of any zone): report_quarters unfiltered, else
 * report_filter_quarters, split by the conversation's current assignee and channel (0 there for none, so an ID
 * below 1, which no conversation has, is answered from the parts). The buckets are summed before the zone
 * conversion: one per quarter hour, not one per (assignee, channel, quarter hour).
 */
export async function reportBusiestHours(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const db = sqlOf(ctx.db);
  const cell = (col: Prisma.Sql) => {
    const local = Prisma.sql`(${col} AT TIME ZONE ${r.timeZone})`;
    return Prisma.sql`extract(isodow FROM ${local})::int AS weekday, extract(hour FROM ${local})::int AS hour`;
  };
  type Row = { weekday: number; hour: number; n: number };
  const table =
    r.operator === null && r.channel === null
      ? Prisma.sql`report_quarters`
      : Prisma.sql`report_filter_quarters`;
  const filters = [Prisma.sql`q.app_id = ${r.appId} AND q.at >= ${r.lo} AND q.at < ${r.hi}`];
  if (r.operator !== null) filters.push(Prisma.sql`q.assignee_id = ${r.operator}`);
  if (r.channel !== null) filters.push(Prisma.sql`q.channel_id = ${r.channel}`);
  const rollup = (r.operator ?? 1n) > 0n && (r.channel ?? 1n) > 0n && (await quartersExact(db, r));
  const rows = rollup
    ? await db.$queryRaw<Row[]>(Prisma.sql`
        SELECT ${cell(Prisma.sql`x.at`)}, sum(x.n)::int AS n FROM (
          SELECT q.at, sum(q.messages) AS n FROM ${table} q
          WHERE ${Prisma.join(filters, " AND ")}
          GROUP BY 1
        ) x
        GROUP BY 1, 2`)
    : await db.$queryRaw<Row[]>(Prisma.sql`
          SELECT ${cell(Prisma.sql`p.created`)}, count(*)::int AS n
          FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
          WHERE p.app_id = ${r.appId} AND p.type = 'reply_user' AND p.created >= ${r.lo} AND p.created < ${r.hi}
            AND ${conversationFilter(r)}
          GROUP BY 1, 2`);
  const by = new Map(rows.map((x) => [`${x.weekday}:${x.hour}`, x.n]));
  const series = [];
  for (let weekday = 1; weekday <= 7; weekday++) {
    for (let hour = 0; hour < 24; hour++)
      series.push({ weekday, hour, messages: by.get(`${weekday}:${hour}`) ?? 0 });
  }
  return envelopeOf(r, series);
}
