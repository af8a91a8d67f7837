import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { firstResponses } from "./first-response";
import { conversationFilter, dayOf, envelopeOf, reportRange, type ReportInput } from "./range";

interface Row {
  day: string;
  n: number;
  median: number | null;
  p90: number | null;
}

const stats = (col: Prisma.Sql) => Prisma.sql`count(*)::int AS n,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY ${col}) AS median,
  percentile_cont(0.9) WITHIN GROUP (ORDER BY ${col}) AS p90`;

/**
 * Per day, in seconds, median and 90th percentile (continuous, interpolated):
 * - first response, by the day the conversation started (firstResponses);
 * - time to close, each `closed` part by its day: from the conversation's start to that part.
 */
export async function reportResponseTimes(ctx: Ctx, input: ReportInput) {
  const r = await reportRange(ctx, input);
  const f = conversationFilter(r);
  const db = sqlOf(ctx.db);
  const first = await db.$queryRaw<Row[]>(Prisma.sql`
    WITH ${firstResponses(r, f)}
    SELECT ${dayOf(r, Prisma.sql`fr.started`)} AS day, ${stats(Prisma.sql`fr.secs`)} FROM fr GROUP BY 1`);
  const close = await db.$queryRaw<Row[]>(Prisma.sql`
    SELECT ${dayOf(r, Prisma.sql`p.created`)} AS day,
      ${stats(Prisma.sql`extract(epoch FROM p.created - c.created)::float8`)}
    FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
    WHERE p.app_id = ${r.appId} AND p.type = 'closed' AND p.created >= ${r.lo} AND p.created < ${r.hi} AND ${f}
    GROUP BY 1`);
  const fb = new Map(first.map((x) => [x.day, x]));
  const cb = new Map(close.map((x) => [x.day, x]));
  return envelopeOf(
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
}
