import { Prisma } from "../db/generated/client";

/** LISTEN/NOTIFY channel on which a commit that logged events wakes every instance's tailer. */
export const NOTIFY_CHANNEL = "relay_event_log";

/** How often every instance reads the log at the latest, whether or not a NOTIFY woke it (lib/realtime/hub.ts). */
export const TAIL_POLL_MS = 1000;

/** First key of the event log's advisory locks. */
export const EVENT_LOG_LOCK = 727_002;

/**
 * The lock a transaction takes before it draws event-log IDs, held until it ends, keyed by the transaction's own
 * ID (`(EVENT_LOG_LOCK, xid mod 2^31-1)`, objsubid 2: unique among transactions running at once). Writers never
 * wait for each other, nor for the log's readers, which find the writers in flight in pg_locks and wait for them
 * (lib/realtime/hub.ts): a key is never taken again once its transaction ends. An SQL fragment for the writing
 * statement's first CTE.
 */
export const WRITER_LOCK = Prisma.sql`pg_advisory_xact_lock(${EVENT_LOG_LOCK}::int4,
  (pg_current_xact_id()::text::int8 % 2147483647)::int4)`;
