import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import {
  envelopeOf,
  quartersFilter,
  quartersTable,
  reportRange,
  rollupUsable,
  workFilter,
  type ReportInput,
} from "./range";

/**
 * Visitors' messages (`reply_user` parts) by ISO weekday and hour of the app's zone: all 168 cells, from the
 * 15-minute rollups (a bucket lies within one hour of any zone): report_quarters unfiltered, else
 * report_filter_quarters, split by the conversation's assignee when the message was written and channel
 * (workFilter; rollupUsable says when the parts answer instead). The buckets are summed before the zone conversion: one per quarter hour, not one per
 * (assignee, channel, quarter hour).
 */
export async function reportBusiestHours(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const db = sqlOf(ctx.db);
  const cell = (col: Prisma.Sql) => {
    const local = Prisma.sql`(${col} AT TIME ZONE ${r.timeZone})`;
    return Prisma.sql`extract(isodow FROM ${local})::int AS weekday, extract(hour FROM ${local})::int AS hour`;
  };
  type Row = { weekday: number; hour: number; n: number };
  const rows = (await rollupUsable(db, r))
    ? await db.$queryRaw<Row[]>(Prisma.sql`
        SELECT ${cell(Prisma.sql`x.at`)}, sum(x.n)::int AS n FROM (
          SELECT q.at, sum(q.messages) AS n FROM ${quartersTable(r)} q
          WHERE ${quartersFilter(r)}
          GROUP BY 1
        ) x
        GROUP BY 1, 2`)
    : await db.$queryRaw<Row[]>(Prisma.sql`
          SELECT ${cell(Prisma.sql`p.created`)}, count(*)::int AS n
          FROM conversation_parts p JOIN conversation_facts f ON f.conversation_id = p.conversation_id
          WHERE p.app_id = ${r.appId} AND p.type = 'reply_user' AND p.created >= ${r.lo} AND p.created < ${r.hi}
            AND ${workFilter(r, Prisma.sql`NULLIF(relay_work_operator(p.conversation_id, p.created, p.id, f.assignee_id), 0)`)}
          GROUP BY 1, 2`);
  const by = new Map(rows.map((x) => [`${x.weekday}:${x.hour}`, x.n]));
  const series = [];
  for (let weekday = 1; weekday <= 7; weekday++) {
    for (let hour = 0; hour < 24; hour++)
      series.push({ weekday, hour, messages: by.get(`${weekday}:${hour}`) ?? 0 });
  }
  return envelopeOf(r, series);
}
