import type { Queryable } from "../db/sql";
import { assertApp, type Ctx } from "../auth/context";
import type { MessageStats } from "./schemas";
import type { Serialized } from "../contract/schemas";

/** What a message's statistics count: its events, and the goal reached. */
export const STAT_KINDS = ["sent", "read", "clicked", "replied", "unsubscribed", "goal"] as const;
export type StatKind = (typeof STAT_KINDS)[number];
type Figures = Record<StatKind, number>;

/**
 * Counts one event of a message (for the control group: "sent" is held back, and the goal), in the transaction
 * that records it: the counts are exact, and a statistics read sums a row per day rather than the events.
 */
export async function countMessageEvent(
  tx: Queryable,
  e: { messageId: bigint; control: boolean; kind: StatKind; at: Date },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO message_stats (message_id, day, control, kind, n)
    VALUES (${e.messageId}, (${e.at}::timestamptz AT TIME ZONE 'UTC')::date, ${e.control}, ${e.kind}, 1)
    ON CONFLICT (message_id, day, control, kind) DO UPDATE SET n = message_stats.n + 1`;
}

const zero = (): Figures => ({ sent: 0, read: 0, clicked: 0, replied: 0, unsubscribed: 0, goal: 0 });

/** Totals per message, for lists: {message → {sent: figures, control: figures}}. */
export async function messageTotals(db: Queryable, ids: bigint[]) {
  const rows = ids.length
    ? await db.$queryRaw<{ message_id: bigint; control: boolean; kind: StatKind; n: bigint }[]>`
        SELECT message_id, control, kind, sum(n)::bigint AS n FROM message_stats
        WHERE message_id = ANY(${ids}::bigint[]) GROUP BY message_id, control, kind`
    : [];
  const out = new Map<bigint, { sent: Figures; control: Figures }>();
  for (const id of ids) out.set(id, { sent: zero(), control: zero() });
  for (const r of rows) {
    const t = out.get(r.message_id);
    if (t && (STAT_KINDS as readonly string[]).includes(r.kind))
      (r.control ? t.control : t.sent)[r.kind] = Number(r.n);
  }
  return out;
}

/**
 * Goal reached per user reached, in percentage points, the message's group minus the control's: what the message
 * changed. Null until both groups have users.
 */
function goalLift(sent: Figures, control: Figures): number | null {
  if (!sent.sent || !control.sent) return null;
  return Math.round((sent.goal / sent.sent - control.goal / control.sent) * 10_000) / 100;
}

export async function messageStats(
  ctx: Ctx,
  input: { appId: bigint; messageId: bigint },
): Promise<Serialized<MessageStats>> {
  assertApp(ctx, input.appId);
  const rows = await ctx.db.$queryRaw<{ day: Date; control: boolean; kind: StatKind; n: bigint }[]>`
    SELECT s.day, s.control, s.kind, s.n FROM message_stats s
    JOIN auto_messages m ON m.id = s.message_id AND m.app_id = ${input.appId}
    WHERE s.message_id = ${input.messageId} ORDER BY s.day`;
  const sent = zero();
  const control = zero();
  const days = new Map<string, { sent: Figures; control: Figures }>();
  for (const r of rows) {
    if (!(STAT_KINDS as readonly string[]).includes(r.kind)) continue;
    const day = r.day.toISOString().slice(0, 10);
    let d = days.get(day);
    if (!d) days.set(day, (d = { sent: zero(), control: zero() }));
    (r.control ? d.control : d.sent)[r.kind] += Number(r.n);
    (r.control ? control : sent)[r.kind] += Number(r.n);
  }
  return {
    message: input.messageId,
    sent,
    control,
    goal_lift: goalLift(sent, control),
    days: [...days].map(([day, d]) => ({ day, ...d })),
  };
}
