import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { byDay, dayIndex, envelopeOf, reportRange, type ReportInput } from "../reports/range";
import type { Serialized } from "../contract/schemas";
import type { CsatReport } from "./schemas";

const COMMENTS = 50;
const score = (good: number, n: number) => (n ? good / n : null);

/**
 * CSAT over a range of the app's days: ratings given in it (score: share of 4–5; per day; comments newest first)
 * and requests made in it (response rate: how many of them are rated now). Per operator: the operator who closed
 * the conversation, by requests made in the range. `operator` keeps that closer's conversations, `channel` the
 * channel's. Ratings are few beside messages: read from conversation_ratings by its (app, time) indexes.
 */
export async function reportCsat(ctx: Ctx, input: ReportInput): Promise<Serialized<CsatReport>> {
  const r = await reportRange(ctx, input);
  const { lo, hi } = r;
  const filters = [Prisma.sql`x.app_id = ${r.appId}`];
  if (r.operator !== null) filters.push(Prisma.sql`x.admin_id = ${r.operator}`);
  if (r.channel !== null)
    filters.push(
      Prisma.sql`EXISTS (SELECT 1 FROM conversations c WHERE c.id = x.conversation_id AND c.channel_id = ${r.channel})`,
    );
  const where = Prisma.join(filters, " AND ");
  const rated = Prisma.sql`${where} AND x.rated_at >= ${lo} AND x.rated_at < ${hi}`;
  const asked = Prisma.sql`${where} AND x.requested_at >= ${lo} AND x.requested_at < ${hi}`;
  const db = sqlOf(ctx.db);
  const [days, ops, req, comments] = await Promise.all([
    db.$queryRaw<{ i: number; n: number; good: number }[]>(Prisma.sql`
      SELECT ${dayIndex(r, Prisma.sql`x.rated_at`)} AS i, count(*)::int AS n,
        count(*) FILTER (WHERE x.rating >= 4)::int AS good
      FROM conversation_ratings x WHERE ${rated} GROUP BY 1`),
    db.$queryRaw<{ admin: bigint; name: string; requests: number; n: number; good: number }[]>(Prisma.sql`
      SELECT a.id AS admin, a.name, count(*)::int AS requests, count(x.rating)::int AS n,
        count(*) FILTER (WHERE x.rating >= 4)::int AS good
      FROM conversation_ratings x JOIN admins a ON a.id = x.admin_id
      WHERE ${asked} GROUP BY a.id, a.name ORDER BY count(*) DESC, a.id`),
    db.$queryRaw<{ requests: number; answered: number }[]>(Prisma.sql`
      SELECT count(*)::int AS requests, count(x.rating)::int AS answered FROM conversation_ratings x WHERE ${asked}`),
    db.$queryRaw<
      {
        conversation: bigint;
        rating: number;
        comment: string;
        rated: Date;
        user_id: bigint;
        name: string | null;
        email: string | null;
      }[]
    >(Prisma.sql`
      SELECT x.conversation_id AS conversation, x.rating, x.comment, x.rated_at AS rated, u.id AS user_id, u.name,
        u.email
      FROM conversation_ratings x JOIN users u ON u.id = x.user_id
      WHERE ${rated} AND x.comment IS NOT NULL
      ORDER BY x.rated_at DESC, x.conversation_id DESC LIMIT ${COMMENTS}`),
  ]);
  const perDay = byDay(r, days);
  const n = days.reduce((s, d) => s + d.n, 0);
  const good = days.reduce((s, d) => s + d.good, 0);
  const { requests, answered } = req[0] ?? { requests: 0, answered: 0 };
  return {
    ...envelopeOf(
      r,
      r.days.map((day) => {
        const d = perDay.get(day);
        return { day, ratings: d?.n ?? 0, good: d?.good ?? 0, score: d ? score(d.good, d.n) : null };
      }),
    ),
    score: score(good, n),
    ratings: n,
    good,
    requests,
    response_rate: requests ? answered / requests : null,
    operators: ops.map((o) => ({
      admin: o.admin,
      name: o.name,
      requests: o.requests,
      ratings: o.n,
      good: o.good,
      score: score(o.good, o.n),
    })),
    comments: comments.map((c) => ({
      conversation: c.conversation,
      rating: c.rating,
      comment: c.comment,
      rated: Math.floor(c.rated.getTime() / 1000),
      user: { id: c.user_id, name: c.name, email: c.email },
    })),
  };
}
