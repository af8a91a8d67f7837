import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * The log's purge mark: the largest id retention has deleted (0 before any purge). Every row above it is still in
 * the log; a replay from below it may be missing messages (purgeEventLog, below, raises it in
 * the deleting statement).
 */
export async function purgedUpTo(db: Db): Promise<bigint> {
  const [row] = await db.$queryRaw<{ up_to: bigint }[]>`SELECT up_to FROM event_log_purged WHERE id = 1`;
  return row?.up_to ?? 0n;
}

/** What a subscribe's ack adds when its replay from `after` may be incomplete: the client should refetch. */
export async function replayGap(
  db: Db,
  after: bigint,
): Promise<{ gap: true; complete_after: number } | undefined> {
  const mark = await purgedUpTo(db);
  return after < mark ? { gap: true, complete_after: Number(mark) } : undefined;
}

export interface Retention {
  eventMaxAgeMs: number;
  deliveryMaxAgeMs: number;
  batch?: number;
}

export const RETENTION: Retention = { eventMaxAgeMs: 48 * HOUR_MS, deliveryMaxAgeMs: 30 * DAY_MS };

const ms = (n: number) => Prisma.sql`(${n}::float8 * INTERVAL '1 millisecond')`;

/**
 * Drops log rows past their age (the real-time replay promises 24 hours) unless a pending delivery still names
 * them, and the finished deliveries past theirs. In batches, so no statement holds many locks for long. Each batch
 * raises the purge mark (purgedUpTo, above) in the same statement, so a replay that misses a row always
 * finds the mark above it.
 */
export async function purgeEventLog(
  db: Db,
  r: Retention = RETENTION,
): Promise<{ events: number; deliveries: number }> {
  const batch = r.batch ?? 5_000;
  let events = 0;
  let deliveries = 0;
  for (;;) {
    const [row] = await db.$queryRaw<{ n: number }[]>`
      WITH gone AS (
        DELETE FROM event_log WHERE id IN (
          SELECT e.id FROM event_log e
          WHERE e.created < now() - ${ms(r.eventMaxAgeMs)}
            AND e.id NOT IN (
              SELECT event_id FROM webhook_deliveries WHERE status = 'pending' AND event_id IS NOT NULL)
          LIMIT ${batch})
        RETURNING id
      ), mark AS (
        INSERT INTO event_log_purged (id, up_to) SELECT 1, max(id) FROM gone HAVING count(*) > 0
        ON CONFLICT (id) DO UPDATE SET up_to = GREATEST(event_log_purged.up_to, EXCLUDED.up_to), updated = now()
      )
      SELECT count(*)::int AS n FROM gone`;
    const n = row?.n ?? 0;
    events += n;
    if (n < batch) break;
  }
  for (;;) {
    const n = await db.$executeRaw`
      DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries
        WHERE status IN ('succeeded', 'failed') AND updated < now() - ${ms(r.deliveryMaxAgeMs)}
        LIMIT ${batch})`;
    deliveries += n;
    if (n < batch) break;
  }
  return { events, deliveries };
}
