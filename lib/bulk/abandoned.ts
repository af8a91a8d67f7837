import type { Db } from "../db/client";
import type { Job } from "../server/jobs";

/** How often a running bulk job proves it is alive, and how long a silence means it is not. */
export const HEARTBEAT_EVERY_MS = 10_000;
export const ABANDONED_AFTER_SECONDS = 60;
export const SWEEP_EVERY_MS = 30_000;

export const ABANDONED_ERROR =
  "the server stopped while this job was running. The conversations changed before it stopped stay changed; " +
  "run the action again to finish (those already as asked are left as they are).";

/** The job is alive, by the database's clock (instances may disagree on theirs). */
export async function beatBulk(db: Db, jobId: bigint): Promise<void> {
  await db.$executeRaw`UPDATE bulk_jobs SET heartbeat = now() WHERE id = ${jobId}`;
}

/**
 * Fails the bulk jobs no process is running any more (a crash, a kill, a shutdown). They are not resumed: the
 * operator who asked was told of a job that stopped, and a selection taken minutes ago may no longer be what they
 * would pick. Running it again is safe, each action leaving alone what is already as asked. Returns their IDs.
 */
export async function failAbandonedBulkJobs(
  db: Db,
  afterSeconds = ABANDONED_AFTER_SECONDS,
): Promise<bigint[]> {
  const rows = await db.$queryRaw<{ id: bigint }[]>`
    UPDATE bulk_jobs SET status = 'failed', error = ${ABANDONED_ERROR}, finished = now()
    WHERE status IN ('pending', 'running') AND heartbeat < now() - ${`${afterSeconds} seconds`}::interval
    RETURNING id`;
  return rows.map((r) => r.id);
}

/** At start, before the port opens: a job a crash left `running` reads as failed from the first request on. */
export const bulkSweepJob: Job = {
  name: "bulk job sweeper",
  everyMs: SWEEP_EVERY_MS,
  startNow: true,
  run: (rt) => failAbandonedBulkJobs(rt.db),
};
