import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { sqlOf, type Queryable } from "../db/sql";
import { processWide } from "../config/process-wide";
import { finalPosition } from "../eventlog/final-position";
import type { JobKind } from "../jobs/runner";
import { wakeJobs } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import { MESSAGE_SEND_QUEUE } from "./send";
import type { MessageSpec } from "./spec";
import { countMessageEvent } from "./stats";
import { anyActive, messagesTriggeredBy, messagesWithGoal, triggerSnapshot } from "./triggers";

export const MESSAGES_CONSUMER = "messages.consumer";
const CURSOR = "messages";
const BATCH = 1000;
const IDLE_ADVANCE_MS = 1_000;
/** Per database (tests run several servers in one process): when the idle cursor last moved. */
const idleSince = () => processWide("messages.idle-advance", () => new WeakMap<Db, number>());

interface EventLogRow {
  id: bigint;
  app_id: bigint;
  user_id: bigint;
  name: string;
  props: Record<string, unknown> | null;
  created: Date;
}

/** A user is in a message's control group by a hash of the two: the same user stays in it for every trigger. */
export function inControl(messageId: bigint, userId: bigint, percent: number): boolean {
  if (percent <= 0) return false;
  const h = createHash("sha256").update(`${messageId}:${userId}`).digest();
  return h.readUInt32BE(0) % 100 < percent;
}

interface Planned {
  message: MessageSpec;
  userId: bigint;
  eventId: bigint;
  at: Date;
}

/**
 * Schedules the sends a batch of events triggers, in one statement: a message's frequency is checked against the
 * user's earlier sends of it, a repeat of the same trigger event (a batch read again after a crash) is dropped by
 * the unique (message, trigger event), and each send gets its job, due after the message's timeout.
 */
async function schedule(tx: Queryable, planned: Planned[]): Promise<number> {
  if (!planned.length) return 0;
  const rows = planned.map((p) => ({
    message_id: String(p.message.id),
    app_id: String(p.message.appId),
    user_id: String(p.userId),
    event_id: String(p.eventId),
    control: inControl(p.message.id, p.userId, p.message.controlPercent),
    due: new Date(p.at.getTime() + p.message.timeoutSeconds * 1000).toISOString(),
    again_days: p.message.frequency.type === "again" ? p.message.frequency.days : null,
  }));
  const made = await tx.$queryRaw<{ id: bigint }[]>`
    WITH r AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(message_id bigint, app_id bigint,
        user_id bigint, event_id bigint, control boolean, due timestamptz, again_days int)
    ), fresh AS (
      SELECT r.* FROM r WHERE NOT EXISTS (
        SELECT 1 FROM message_sends s WHERE s.message_id = r.message_id AND s.user_id = r.user_id
          AND s.state <> 'skipped'
          AND (r.again_days IS NULL OR s.created > r.due - r.again_days * INTERVAL '1 day'))
    ), ins AS (
      INSERT INTO message_sends (message_id, app_id, user_id, trigger_event_id, control, due_at)
      SELECT DISTINCT ON (message_id, user_id) message_id, app_id, user_id, event_id, control, due FROM fresh
      ORDER BY message_id, user_id, event_id
      ON CONFLICT (message_id, trigger_event_id) DO NOTHING
      RETURNING id, due_at
    ), jobs AS (
      INSERT INTO jobs (queue, payload, run_at)
      SELECT ${MESSAGE_SEND_QUEUE}, jsonb_build_object('send', id::text), due_at FROM ins
    )
    SELECT id FROM ins`;
  return made.length;
}

/**
 * A goal event: the user's sends of the messages with that goal, triggered within its window and not yet counted,
 * count it (message and control alike); those not yet sent are cancelled when the goal says stop.
 */
async function reachGoals(tx: Queryable, m: MessageSpec, userId: bigint, at: Date): Promise<void> {
  const goal = m.goal!;
  const reached = await tx.$queryRaw<{ control: boolean; state: string }[]>`
    UPDATE message_sends SET goal_at = ${at}
    WHERE message_id = ${m.id} AND user_id = ${userId} AND goal_at IS NULL
      AND created <= ${at} AND created > ${at}::timestamptz - ${goal.within_hours} * INTERVAL '1 hour'
      AND state IN ('sent', 'held', 'scheduled')
    RETURNING control, state`;
  for (const r of reached)
    if (r.state !== "scheduled")
      await countMessageEvent(tx, { messageId: m.id, control: r.control, kind: "goal", at });
  if (goal.stop)
    await tx.$executeRaw`
      UPDATE message_sends SET state = 'skipped', reason = 'goal'
      WHERE message_id = ${m.id} AND user_id = ${userId} AND state = 'scheduled'`;
}

const batchOf = (tx: Queryable, after: bigint, upTo: bigint) =>
  tx.$queryRaw<EventLogRow[]>`
    SELECT id, app_id, user_id, payload #>> '{type,name}' AS name, payload -> 'props' AS props, created
    FROM event_log
    WHERE id > ${after} AND id <= ${upTo} AND channel LIKE 'event.%' AND user_id IS NOT NULL
    ORDER BY id LIMIT ${BATCH}`;

/**
 * One round of the messages' reader of the event log: the next batch of user events past its cursor (up to the
 * log's final position, so that no row committed later under a lower ID is passed over), matched in memory against
 * the apps' active messages (read before the transaction: the embedded database serves one connection at a time);
 * the sends scheduled, the goals counted and the cursor moved in one transaction, the cursor's row locked so that
 * one instance reads at a time. With no active message anywhere, the cursor only moves to the log's end. True when
 * there is more to read.
 */
export async function consumeEvents(rt: Runtime): Promise<boolean> {
  const db = sqlOf(rt.db);
  const active = await anyActive(rt.db);
  // With nothing to trigger, a commit costs nothing: the cursor catches up with the log once a second.
  const idle = idleSince();
  if (!active) {
    const last = idle.get(rt.db) ?? 0;
    if (Date.now() - last < IDLE_ADVANCE_MS) return false;
    idle.set(rt.db, Date.now());
  }
  const [peek] = await db.$queryRaw<
    { position: bigint }[]
  >`SELECT position FROM log_cursors WHERE name = ${CURSOR}`;
  if (!peek) return false;
  const ahead = active ? await batchOf(db, peek.position, BigInt(Number.MAX_SAFE_INTEGER)) : [];
  const snap = await triggerSnapshot(
    rt.db,
    ahead.map((r) => r.app_id),
  );
  let scheduled = 0;
  const more = await db.transaction(async (tx) => {
    const [cursor] = await tx.$queryRaw<{ position: bigint }[]>`
      SELECT position FROM log_cursors WHERE name = ${CURSOR} FOR UPDATE SKIP LOCKED`;
    if (!cursor) return false;
    const final = await finalPosition(tx);
    if (final <= cursor.position) return false;
    const rows = active ? await batchOf(tx, cursor.position, final) : [];
    const planned: Planned[] = [];
    let to = rows.length === BATCH ? rows.at(-1)!.id : final;
    for (const r of rows) {
      // An app the look ahead did not see (another instance read in between): the next round reads it.
      if (!snap.has(r.app_id)) {
        to = r.id - 1n;
        break;
      }
      const props = r.props ?? {};
      const event = { appId: r.app_id, name: r.name, props };
      for (const message of messagesTriggeredBy(snap, event))
        planned.push({ message, userId: r.user_id, eventId: r.id, at: new Date() });
      for (const m of messagesWithGoal(snap, r.app_id, r.name)) await reachGoals(tx, m, r.user_id, r.created);
    }
    scheduled = await schedule(tx, planned);
    await tx.$executeRaw`UPDATE log_cursors SET position = ${to} WHERE name = ${CURSOR}`;
    return to < final;
  });
  if (scheduled) wakeJobs(rt, MESSAGE_SEND_QUEUE);
  return more;
}

/** The reader runs on every instance, woken by each commit; the cursor's lock lets one read at a time. */
export const messagesConsumerJob: JobKind = {
  name: MESSAGES_CONSUMER,
  perInstance: true,
  everyMs: 1_000,
  run: async (rt) => {
    while (await consumeEvents(rt));
  },
};
