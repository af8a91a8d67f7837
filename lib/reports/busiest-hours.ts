import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { conversationFilter, envelopeOf, reportRange, type ReportInput } from "./range";

/** Visitors' messages (`reply_user` parts) by ISO weekday and hour of the app's zone: all 168 cells. */
export async function reportBusiestHours(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const local = Prisma.sql`(p.created AT TIME ZONE ${r.timeZone})`;
  const rows = await sqlOf(ctx.db).$queryRaw<{ weekday: number; hour: number; n: number }[]>(Prisma.sql`
    SELECT extract(isodow FROM ${local})::int AS weekday, extract(hour FROM ${local})::int AS hour,
      count(*)::int AS n
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
