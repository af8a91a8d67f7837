import type { Db, Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { Queryable, SqlDb } from "../db/sql";
import { retryingConflicts } from "../db/conflicts";
import { toJson } from "../domain/json";
import { tryRuntime } from "../server/runtime";
import { insertDeliveries, webhookTargets, type Target } from "./fan-out";
import { markQueued } from "./webhook-state";
import { NOTIFY_CHANNEL, WRITER_LOCK } from "./keys";
import type { INTERNAL_CHANNEL } from "./internal";
import {
  MESSENGER_CHANNEL,
  type LoggedKind,
  type MessengerMessage,
  type SocketEnvelope,
  type SocketEvent,
  type TransientKind,
} from "../contract/socket";
import type { Serialized } from "../contract/schemas";

/**
 * The event log's one writer: every row of `event_log` is inserted by the statement part appendLogCtes builds, for
 * rows given here (withEvents, changeWithEvents) or computed by a statement of its own (lib/events/track-grouped.ts);
 * the commit then wakes the tailers (appendedCommitted, notifyCommitted). Purged by lib/eventlog/retention.ts.
 */

/**
 * One row of the event log: what others must see of a change, written in the change's own transaction. Its channel
 * and payload are those of its kind and type in the socket contract (lib/realtime/contract.ts, SocketEvent); the
 * payload is the API object (v2 shape), written with IDs as numbers; webhook kinds are derived from `type`.
 */
export type LogEvent = SocketEvent<LoggedKind> | InternalEvent;

/** The instances' own rows (lib/eventlog/internal.ts): in no app, never sent to a socket. */
interface InternalEvent {
  appId: null;
  channel: typeof INTERNAL_CHANNEL;
  type: string;
  payload: unknown;
  userId?: undefined;
}

export type Emit = (e: LogEvent) => void;

/** pg_notify at commit, waking every instance's tailer; a statement's repeats fold into one. */
const NOTIFY_AT_COMMIT = Prisma.sql`pg_notify(${NOTIFY_CHANNEL}, '')::text`;

/** How the statement's webhook targets name the logged rows: their position in the batch, or their type. */
export type TargetKey = "position" | "type";

/**
 * The only INSERT into `event_log`: the CTEs `l` and `log` (and, for `targets`, `keyed` and `wh`) of a statement
 * appending the batch `rows`, a query of the columns (ord, app_id, user_id, channel, type, payload). It takes this
 * transaction's log-writer lock (WRITER_LOCK: one per backend, so writers never wait for each other) and only then
 * draws the IDs, in `ord` order, as rows are inserted; it queues the NOTIFY and the webhook deliveries. The lock is
 * held to the commit: lib/realtime/hub.ts waits for the writers holding it before it treats IDs as final. `after`
 * (a FROM item: the change the rows tell of, or what must lock before the log) is evaluated before the lock, and
 * nothing is logged unless it yields a row. `log` returns (id, type, payload) of each row.
 */
export function appendLogCtes(
  rows: Prisma.Sql,
  opts: { targets: Target[]; keyBy: TargetKey; after?: Prisma.Sql },
): Prisma.Sql {
  const key =
    opts.keyBy === "type" ? Prisma.sql`type` : Prisma.sql`(row_number() OVER (ORDER BY id) - 1)::text`;
  return Prisma.sql`
    l AS MATERIALIZED (SELECT ${WRITER_LOCK}::text AS locked${opts.after ? Prisma.sql` FROM ${opts.after}` : Prisma.empty}),
    log AS (
      INSERT INTO event_log (app_id, user_id, channel, type, payload)
      SELECT r.app_id, r.user_id, r.channel, r.type, r.payload FROM l, (${rows}) r ORDER BY r.ord
      RETURNING id, type, payload, ${NOTIFY_AT_COMMIT} AS n
    )${
      opts.targets.length
        ? Prisma.sql`, keyed AS (SELECT id, payload, ${key} AS key FROM log),
          wh AS (${insertDeliveries("keyed", opts.targets)})`
        : Prisma.empty
    }`;
}

/** The rows for jsonb_to_recordset, payloads as the API writes them (64-bit IDs as numbers). */
function eventsJson(events: LogEvent[]): string {
  const rows = events.map(
    (e, k) =>
      `{"k":${k},"app_id":${e.appId === null ? "null" : `"${e.appId}"`},"user_id":${e.userId === undefined ? "null" : `"${e.userId}"`},` +
      `"channel":${JSON.stringify(e.channel)},"type":${JSON.stringify(e.type)},` +
      `"payload":${toJson(e.payload ?? null, false)}}`,
  );
  return `[${rows.join(",")}]`;
}

/**
 * The statement appending `events` to the log with their webhook deliveries (appendLogCtes). With `gate` (a CTE of
 * the statement, e.g. the change the events tell of), nothing is logged unless it yields a row.
 */
function appendSql(
  events: LogEvent[],
  targets: Target[],
  gate?: { name: string; cte: Prisma.Sql },
): Prisma.Sql {
  const rows = Prisma.sql`
    SELECT e.k AS ord, e.app_id, e.user_id, e.channel, e.type, e.payload
    FROM jsonb_to_recordset(${eventsJson(events)}::jsonb)
      AS e(k int, app_id bigint, user_id bigint, channel text, type text, payload jsonb)`;
  return Prisma.sql`
    WITH ${gate ? Prisma.sql`${Prisma.raw(gate.name)} AS (${gate.cte}),` : Prisma.empty}
    ${appendLogCtes(rows, { targets, keyBy: "position", after: gate && Prisma.raw(gate.name) })}
    SELECT id FROM log ORDER BY id`;
}

const keyed = (events: LogEvent[]) => events.map((e, k) => ({ ...e, key: String(k) }));

/** Appends the emitted events to the log inside the writing transaction (appendSql). */
async function appendEvents(tx: Queryable, events: LogEvent[]): Promise<bigint[]> {
  if (!events.length) return [];
  const targets = await webhookTargets(tx, keyed(events));
  const rows = await tx.$queryRaw<{ id: bigint }[]>(appendSql(events, targets));
  const ids = rows.map((r) => r.id);
  markQueued(targets.map((t) => ids[Number(t.key)]!));
  return ids;
}

/**
 * One statement, its own transaction: the change `cte` (a data-modifying statement with RETURNING, one row at
 * most) and, when it yields its row, `events` appended to the log after it, as withEvents would in a transaction;
 * then the publishers are woken. Whether the change was made: a change that matched no row logs nothing.
 */
export async function changeWithEvents(db: Queryable, cte: Prisma.Sql, events: LogEvent[]): Promise<boolean> {
  if (!events.length) return (await db.$queryRaw<unknown[]>(cte)).length > 0;
  const targets = await webhookTargets(db, keyed(events));
  const rows = await db.$queryRaw<{ id: bigint }[]>(appendSql(events, targets, { name: "change", cte }));
  if (!rows.length) return false;
  const ids = rows.map((r) => r.id);
  appendedCommitted(
    ids,
    targets.map((t) => ids[Number(t.key)]!),
  );
  return true;
}

/**
 * Runs `fn` in one transaction and appends the events it emits to the log in that same transaction. Only after
 * the commit are they handed to the publishers; a rolled-back change publishes nothing. On a Prisma client `fn`
 * gets a Prisma transaction; on the driver (`sqlOf(db)`, lib/db/sql.ts), for the hottest writes, raw statements
 * only, and the transaction costs a fraction of Prisma's. A transaction the database rolled back on a deadlock or
 * a serialization failure runs again, `fn` with it (lib/db/conflicts.ts): `fn` acts on the database only.
 */
export function withEvents<T>(db: Db, fn: (tx: Tx, emit: Emit) => Promise<T>): Promise<T>;
export function withEvents<T>(db: SqlDb, fn: (tx: Queryable, emit: Emit) => Promise<T>): Promise<T>;
export async function withEvents<T>(
  db: Db | SqlDb,
  fn: ((tx: Tx, emit: Emit) => Promise<T>) | ((tx: Queryable, emit: Emit) => Promise<T>),
): Promise<T> {
  const body = async (tx: Tx | Queryable) => {
    const events: LogEvent[] = [];
    // The overloads pair each kind of `db` with its kind of transaction.
    const r = await fn(tx as Tx, (e) => events.push(e));
    return { r, ids: await appendEvents(tx, events) };
  };
  // A deadlock between rollup rows (a new conversation against an assignment in the same app) rolls one writer
  // back whole; run again, it commits. Nothing left the transaction: its events are published after the commit.
  const { r, ids } = await retryingConflicts(() =>
    "$transaction" in db ? db.$transaction(body, { maxWait: 30_000, timeout: 30_000 }) : db.transaction(body),
  );
  if (ids.length) notifyCommitted(ids);
  return r;
}

/** After a statement that appended rows on its own (its own transaction): its deliveries queued, then the wake. */
export function appendedCommitted(ids: bigint[], queued: bigint[]): void {
  markQueued(queued);
  if (ids.length) notifyCommitted(ids);
}

/** Wakes the publishers (the hub, the webhook dispatcher) with the IDs a commit appended. */
export function notifyCommitted(ids: bigint[]): void {
  for (const hook of tryRuntime()?.afterCommit ?? []) {
    try {
      hook(ids);
    } catch (err) {
      console.error("event publisher failed", err);
    }
  }
}

/** The room of a visitor's sockets subscribed to `messenger` (lib/realtime/visitor-subs.ts). */
export const messengerRoom = (userId: bigint) => `messenger:${userId}`;

/**
 * Events that are not stored (typing): straight to the subscribers of their channel, and, when the visitor's own
 * messenger may see the event, as `visitor` says to its subscribed sockets.
 */
export function publishTransient(
  e: SocketEvent<TransientKind>,
  visitor?: Serialized<MessengerMessage>,
): void {
  const io = tryRuntime()?.io;
  if (!io) return;
  const message = JSON.parse(toJson(e.payload, false)) as unknown;
  const time = Date.now() / 1000;
  const send = (m: SocketEnvelope, room: string) => io.to(room).emit("message", m);
  // Rooms, not the log: with the Redis adapter this reaches every instance's subscribers.
  send({ id: null, channel: e.channel, type: e.type, message, time }, e.channel);
  if (e.userId !== undefined) {
    const scoped = `${e.channel}.${e.userId}`;
    send({ id: null, channel: scoped, type: e.type, message, time }, scoped);
    if (visitor) {
      const shown = JSON.parse(toJson(visitor.message, false)) as unknown;
      send(
        { id: null, channel: MESSENGER_CHANNEL, type: visitor.type, message: shown, time },
        messengerRoom(e.userId),
      );
    }
  }
}
