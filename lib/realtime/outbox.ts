import type { Db, Tx } from "../db/client";
import { sqlOf, type Queryable } from "../db/sql";
import { toJson } from "../api/envelope";
import { tryRuntime } from "../server/runtime";
import { enqueueWebhooks } from "../webhooks/enqueue";
import { NOTIFY_CHANNEL, WRITER_LOCK } from "./log-keys";

/** One row of the event log: what others must see of a change, written in the change's own transaction. */
export interface LogEvent {
  appId: bigint;
  /** e.g. `conversation_reply.<app>`; webhook kinds are derived from `type`. */
  channel: string;
  type: string;
  /** The API object (v2 shape); IDs as numbers. */
  payload: unknown;
  /** The visitor concerned: the event is then also delivered on `<channel>.<user>`. */
  userId?: bigint;
}

export type Emit = (e: LogEvent) => void;

interface LoggedRow {
  id: bigint;
  app_id: bigint;
  type: string;
  payload: unknown;
  created: Date;
}

/** The rows for jsonb_to_recordset, payloads as the API writes them (64-bit IDs as numbers). */
function eventsJson(events: LogEvent[]): string {
  const rows = events.map(
    (e) =>
      `{"app_id":"${e.appId}","user_id":${e.userId === undefined ? "null" : `"${e.userId}"`},` +
      `"channel":${JSON.stringify(e.channel)},"type":${JSON.stringify(e.type)},` +
      `"payload":${toJson(e.payload ?? null, false)}}`,
  );
  return `[${rows.join(",")}]`;
}

/**
 * Writes the emitted events into the log inside the writing transaction. The statement first takes this
 * transaction's log-writer lock (WRITER_LOCK: one per backend, so writers never wait for each other) and only then
 * draws the IDs as rows are inserted; it also queues the NOTIFY that wakes every instance's tailer at commit
 * (PostgreSQL folds repeats). The lock is held to the commit: lib/realtime/hub.ts waits for the writers holding it
 * before it treats IDs as final.
 */
async function logEvents(tx: Queryable, events: LogEvent[]): Promise<bigint[]> {
  if (!events.length) return [];
  const rows = await tx.$queryRaw<LoggedRow[]>`
    WITH l AS MATERIALIZED (SELECT ${WRITER_LOCK}::text AS locked),
    ev AS (
      INSERT INTO event_log (app_id, user_id, channel, type, payload)
      SELECT e.app_id, e.user_id, e.channel, e.type, e.payload
      FROM l, jsonb_to_recordset(${eventsJson(events)}::jsonb)
        AS e(app_id bigint, user_id bigint, channel text, type text, payload jsonb)
      RETURNING id, app_id, type, payload, created
    )
    SELECT ev.id, ev.app_id, ev.type, ev.payload, ev.created, pg_notify(${NOTIFY_CHANNEL}, '')::text AS n
    FROM ev ORDER BY ev.id`;
  await enqueueWebhooks(
    tx,
    rows.map((r) => ({ id: r.id, appId: r.app_id, type: r.type, payload: r.payload, created: r.created })),
  );
  return rows.map((r) => r.id);
}

/** `fn` in a transaction of `begin`'s, its emitted events logged in it, published only after the commit. */
async function logged<X, T>(
  begin: (body: (tx: X) => Promise<{ r: T; ids: bigint[] }>) => Promise<{ r: T; ids: bigint[] }>,
  log: (tx: X) => Queryable,
  fn: (tx: X, emit: Emit) => Promise<T>,
): Promise<T> {
  const { r, ids } = await begin(async (tx) => {
    const events: LogEvent[] = [];
    const r = await fn(tx, (e) => events.push(e));
    return { r, ids: await logEvents(log(tx), events) };
  });
  if (ids.length) notifyCommitted(ids);
  return r;
}

/**
 * Runs `fn` in one transaction and writes the events it emits into the log in that same transaction. Only after
 * the commit are they handed to the publishers; a rolled-back change publishes nothing.
 */
export function withEvents<T>(db: Db, fn: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
  return logged(
    (body) => db.$transaction(body, { maxWait: 30_000, timeout: 30_000 }),
    (tx: Tx) => tx,
    fn,
  );
}

/**
 * withEvents on the driver itself (lib/db/sql.ts), for the hottest writes: `fn` gets raw statements only, and the
 * transaction costs a fraction of Prisma's.
 */
export function withEventsSql<T>(db: Db, fn: (tx: Queryable, emit: Emit) => Promise<T>): Promise<T> {
  return logged(
    (body) => sqlOf(db).transaction(body),
    (tx: Queryable) => tx,
    fn,
  );
}

export function notifyCommitted(ids: bigint[]): void {
  for (const hook of tryRuntime()?.afterCommit ?? []) {
    try {
      hook(ids);
    } catch (err) {
      console.error("event publisher failed", err);
    }
  }
}

/** Events that are not stored (typing): straight to the subscribers of their channel. */
export function publishTransient(e: LogEvent): void {
  const io = tryRuntime()?.io;
  if (!io) return;
  const message = JSON.parse(toJson(e.payload, false)) as unknown;
  const time = Date.now() / 1000;
  // Rooms, not the log: with the Redis adapter this reaches every instance's subscribers.
  io.to(e.channel).emit("message", { id: null, channel: e.channel, message, time });
  if (e.userId !== undefined) {
    const scoped = `${e.channel}.${e.userId}`;
    io.to(scoped).emit("message", { id: null, channel: scoped, message, time });
  }
}
