import type { Db } from "../db/client";
import type { Job } from "../server/jobs";

/** How often a running import proves it is alive, and how long a silence means it is not. */
export const HEARTBEAT_EVERY_MS = 10_000;
export const ABANDONED_AFTER_SECONDS = 60;
export const SWEEP_EVERY_MS = 30_000;

export const ABANDONED_ERROR =
  "the server stopped while this import was running. The rows imported before it stopped are kept; upload " +
  "the file again to import the rest (rows are merged on the merge field, so none is duplicated).";

/** The job is alive, by the database's clock (instances may disagree on theirs). */
export async function beat(db: Db, jobId: bigint): Promise<void> {
  await db.$executeRaw`UPDATE import_jobs SET heartbeat = now() WHERE id = ${jobId}`;
}

/**
 * Fails the imports no process is running any more (their heartbeat stopped: a crash, a kill, a shutdown). They
 * are not resumed: the uploaded file lived in one machine's temporary directory and may be gone with it, and
 * an import restarted from the top would count its rows twice. Returns the IDs of the jobs it failed.
 */
export async function failAbandonedImports(
  db: Db,
  afterSeconds = ABANDONED_AFTER_SECONDS,
): Promise<bigint[]> {
  const rows = await db.$queryRaw<{ id: bigint }[]>`
    UPDATE import_jobs SET status = 'failed', error = ${ABANDONED_ERROR}, finished = now()
    WHERE status IN ('pending', 'running') AND heartbeat < now() - ${`${afterSeconds} seconds`}::interval
    RETURNING id`;
  return rows.map((r) => r.id);
}

/** At start, before the port opens: an import a crash left `running` reads as failed from the first request on. */
export const importSweepJob: Job = {
  name: "import sweeper",
  everyMs: SWEEP_EVERY_MS,
  startNow: true,
  run: (rt) => failAbandonedImports(rt.db),
};
