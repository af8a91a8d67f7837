import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { sqlOf, type Queryable } from "../db/sql";
import { toJson } from "../domain/json";

export const JOB_STATUSES = ["queued", "running", "done", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job as its claimer holds it: `attempts` counts this one, and guards every later write of the claim. */
export interface ClaimedJob {
  id: bigint;
  queue: string;
  key: string | null;
  payload: unknown;
  attempts: number;
  /** Claimed after its previous holder's lease ran out: that holder crashed, or stopped without releasing it. */
  resumed: boolean;
}

const ms = (n: number) => Prisma.sql`(${n}::float8 * INTERVAL '1 millisecond')`;

/**
 * Queues a job; on `tx` it commits (or rolls back) with the change that asked for it. The caller wakes the
 * runner after the commit (wakeQueue) so that it starts at once rather than on the next poll.
 */
export async function enqueueJob(
  tx: Queryable,
  input: { queue: string; payload: unknown; runAt?: Date },
): Promise<bigint> {
  const [row] = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO jobs (queue, payload, run_at)
    VALUES (${input.queue}, ${toJson(input.payload, false)}::jsonb, ${input.runAt ?? new Date()})
    RETURNING id`;
  return row!.id;
}

/** A periodic job's one row, made by the first instance to start; the others (and restarts) keep its schedule. */
export async function ensurePeriodic(db: Db, queue: string, firstAfterMs: number): Promise<void> {
  await sqlOf(db).$executeRaw`
    INSERT INTO jobs (queue, key, run_at) VALUES (${queue}, ${`every:${queue}`}, now() + ${ms(firstAfterMs)})
    ON CONFLICT (key) DO NOTHING`;
}

/**
 * Claims up to `limit` due jobs of a queue under a lease: queued ones whose time has come, and running ones whose
 * lease ran out (their holder is gone). SKIP LOCKED lets instances claim side by side without taking the same rows.
 */
export async function claimJobs(
  db: Db,
  queue: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedJob[]> {
  const rows = await sqlOf(db).$queryRaw<
    { id: bigint; queue: string; key: string | null; payload: unknown; attempts: number; was: string }[]
  >(Prisma.sql`
    WITH due AS (
      SELECT id, status AS was FROM jobs
      WHERE queue = ${queue}
        AND ((status = 'queued' AND run_at <= now()) OR (status = 'running' AND lease_until < now()))
      ORDER BY run_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE jobs j SET status = 'running', attempts = j.attempts + 1, lease_until = now() + ${ms(leaseMs)},
      started = COALESCE(j.started, now())
    FROM due WHERE j.id = due.id
    RETURNING j.id, j.queue, j.key, j.payload, j.attempts, due.was`);
  return rows.map((r) => ({
    id: r.id,
    queue: r.queue,
    key: r.key,
    payload: typeof r.payload === "string" ? (JSON.parse(r.payload) as unknown) : r.payload,
    attempts: Number(r.attempts),
    resumed: r.was === "running",
  }));
}

/** Whether the claim still holds; false once another claimer took the job (this one's lease had run out). */
export async function renewLease(db: Db, job: ClaimedJob, leaseMs: number): Promise<boolean> {
  const n = await sqlOf(db).$executeRaw`
    UPDATE jobs SET lease_until = now() + ${ms(leaseMs)}
    WHERE id = ${job.id} AND status = 'running' AND attempts = ${job.attempts}`;
  return n > 0;
}

export type Settle =
  | { kind: "done" }
  | { kind: "failed"; error: string }
  /** Due again at `afterMs` from now: a retry, a periodic job's next run, or a release at shutdown. */
  | { kind: "again"; afterMs: number; error: string | null };

/** Records how a claim ended; a claim another process has taken since records nothing. */
export async function settleJob(db: Db, job: ClaimedJob, how: Settle): Promise<void> {
  const guard = Prisma.sql`WHERE id = ${job.id} AND status = 'running' AND attempts = ${job.attempts}`;
  const q = sqlOf(db);
  if (how.kind === "again") {
    await q.$executeRaw`
      UPDATE jobs SET status = 'queued', lease_until = NULL, run_at = now() + ${ms(how.afterMs)},
        last_error = ${how.error} ${guard}`;
  } else {
    const error = how.kind === "failed" ? how.error.slice(0, 1000) : null;
    await q.$executeRaw`
      UPDATE jobs SET status = ${how.kind}, lease_until = NULL, finished = now(), last_error = ${error} ${guard}`;
  }
}

/** Finished jobs are kept a week for whoever looks into one (`npm run cli -- jobs`), then dropped. */
export async function purgeFinishedJobs(db: Db, olderThanMs = 7 * 24 * 3600_000): Promise<number> {
  return sqlOf(db).$executeRaw`
    DELETE FROM jobs WHERE status IN ('done', 'failed') AND finished < now() - ${ms(olderThanMs)}`;
}

/** The newest jobs first (the CLI's `jobs`): what an operator looks at when background work seems stuck. */
export function listJobs(db: Db, input: { status?: JobStatus; limit: number }) {
  return db.job.findMany({
    where: input.status ? { status: input.status } : {},
    orderBy: { id: "desc" },
    take: input.limit,
  });
}
