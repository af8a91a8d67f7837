import type { Queryable } from "../db/sql";
import { EVENT_LOG_LOCK } from "./keys";

/**
 * The highest event ID that is final: each ID up to it is committed, or was drawn by a transaction that rolled
 * back. IDs are drawn only under a writer's lock (lib/eventlog/keys.ts, WRITER_LOCK), so the sequence is read first, then
 * the writers in flight are waited for (a shared lock on each one's key, granted when it ends): every ID read was
 * drawn by one of them or by a writer already done. Writers never wait for this: their keys are never reused.
 */
export async function finalPosition(db: Queryable): Promise<bigint> {
  const [row] = await db.$queryRaw<{ drawn: bigint }[]>`
    WITH seq AS MATERIALIZED (
      SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END AS drawn FROM event_log_id_seq
    )
    SELECT seq.drawn, (
      SELECT count(pg_advisory_xact_lock_shared(${EVENT_LOG_LOCK}::int4, l.objid::int8::int4))
      FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.classid = ${EVENT_LOG_LOCK}::int4::oid AND l.objsubid = 2 AND l.granted
        AND l.mode = 'ExclusiveLock' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    ) AS waited
    FROM seq`;
  return row?.drawn ?? 0n;
}
