import type { Db } from "../db/client";

/**
 * The log's purge mark: the largest id retention has deleted (0 before any purge). Every row above it is still in
 * the log; a replay from below it may be missing messages (purgeEventLog, lib/realtime/outbox.ts, raises it in
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
