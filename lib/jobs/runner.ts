import { errorLine } from "../db/client";
import { processWide } from "../config/process-wide";
import type { Runtime } from "../server/runtime";
import { restAfter } from "../server/foreground";
import { startLoop, type Loop } from "./loop";
import { claimJobs, ensurePeriodic, renewLease, settleJob, type ClaimedJob, type Settle } from "./store";

/** A claimed job as its handler sees it. */
export interface JobRun {
  id: bigint;
  payload: unknown;
  /** This attempt's number, from 1. */
  attempts: number;
  /** Its previous holder's lease ran out mid-run (a crash): the handler picks up what that holder left. */
  resumed: boolean;
  /** Aborted at shutdown, or when the claim was lost: the handler stops at its next safe point. */
  signal: AbortSignal;
}

/**
 * A kind of background work. Its rows live in `jobs` (lib/jobs/store.ts); whichever instance claims one runs it.
 * A handler that throws is retried with backoff up to `maxAttempts`, then failed with the error recorded; one that
 * returns "again" (stopped at shutdown with work left) is released at once for the next claimer.
 */
export interface JobKind {
  name: string;
  run(rt: Runtime, job: JobRun): Promise<void | "again">;
  /** Jobs of this kind one process runs at once. */
  concurrency?: number;
  /** How long a claim holds without renewal; renewed every third of it while the handler runs. */
  leaseMs?: number;
  maxAttempts?: number;
  /** The first retry's delay, doubled each attempt. */
  retryBaseMs?: number;
  /** Periodic: one row for every instance, due again this long after each run, whether it succeeded or not. */
  everyMs?: number;
  /** A periodic job's first run after the row is made (default `everyMs`). */
  firstAfterMs?: number;
  /**
   * A periodic job whose work is this process's own (the presence sweep covers the apps whose heartbeats reached
   * it): every instance runs it on its own timer, with no row to claim.
   */
  perInstance?: boolean;
  /** How often a kind looks for due rows when no wake came (another instance queued them, a retry came due). */
  pollMs?: number;
  /**
   * Work no request waits for (email): while the server answers requests, one job at a time, resting after each
   * so that it takes at most BACKGROUND_SHARE of the time (lib/server/foreground.ts).
   */
  background?: boolean;
}

export interface Runner {
  /** Runs a round of `kind` now: a job was just queued. */
  wake(kind: string): void;
  /** Runs a round of every kind and waits for it (tests). */
  poll(kind: string): Promise<void>;
  /** Stops claiming; asks running handlers to stop; releases what has not ended within `withinMs`. */
  stop(withinMs?: number): Promise<void>;
  /** Per kind: whether a timer, round or job is alive (tests: nothing is left after stop). */
  busy(): Record<string, boolean>;
}

const DEFAULT_LEASE_MS = 30_000;

/** The runner of each server of this process, so that a service that queued a job can wake it. */
const runners = () => processWide("job-runners", () => new WeakMap<Runtime, Runner>());

/** Wakes `kind` on `rt`'s runner, if it has one (a CLI process has none; the servers' polls find the job). */
export function wakeJobs(rt: Runtime | undefined, kind: string): void {
  if (rt) runners().get(rt)?.wake(kind);
}

export function jobRunner(rt: Runtime): Runner | undefined {
  return runners().get(rt);
}

const backoff = (kind: JobKind, attempts: number) =>
  Math.min((kind.retryBaseMs ?? 5_000) * 2 ** (attempts - 1), 3600_000);

export async function startRunner(
  rt: Runtime,
  kinds: JobKind[],
  log: (line: string) => void = (l) => console.error(l),
): Promise<Runner> {
  for (const k of kinds)
    if (k.everyMs && !k.perInstance) await ensurePeriodic(rt.db, k.name, k.firstAfterMs ?? k.everyMs);
  const running = new Map<
    bigint,
    { done: Promise<void>; abort: AbortController; job: ClaimedJob; kind: JobKind }
  >();
  const loops = new Map<string, Loop>();
  let stopping = false;
  // Background kinds: until when each rests, and the timer that wakes it then.
  const restUntil = new Map<string, number>();
  const restTimers = new Map<string, NodeJS.Timeout>();
  const polling = new Set<string>();
  const answering = () => rt.foreground?.busy() ?? false;
  const rest = (kind: JobKind, elapsedMs: number) => {
    const until = Math.max(restUntil.get(kind.name) ?? 0, performance.now() + restAfter(elapsedMs));
    restUntil.set(kind.name, until);
  };
  /** Whether a background kind is resting now; if so, a wake is set for when it ends. */
  const resting = (kind: JobKind) => {
    const left = (restUntil.get(kind.name) ?? 0) - performance.now();
    if (left <= 0 || !answering()) return false;
    if (!restTimers.has(kind.name)) {
      const t = setTimeout(() => {
        restTimers.delete(kind.name);
        loops.get(kind.name)?.wake();
      }, left);
      t.unref();
      restTimers.set(kind.name, t);
    }
    return true;
  };

  const run = async (kind: JobKind, job: JobRun) => {
    await kind.run(rt, job);
    return false;
  };
  // A periodic job failing on every run (a database outage) is logged once per streak, as a loop's round is.
  const failing = new Set<string>();

  const settle = (kind: JobKind, job: ClaimedJob, outcome: "ok" | "again" | Error): Settle => {
    if (kind.everyMs)
      return {
        kind: "again",
        afterMs: kind.everyMs,
        error: outcome instanceof Error ? errorLine(outcome) : null,
      };
    if (outcome === "again") return { kind: "again", afterMs: 0, error: null };
    if (outcome === "ok") return { kind: "done" };
    if (job.attempts >= (kind.maxAttempts ?? 3)) return { kind: "failed", error: errorLine(outcome) };
    return { kind: "again", afterMs: backoff(kind, job.attempts), error: errorLine(outcome) };
  };

  const execute = (kind: JobKind, job: ClaimedJob) => {
    const abort = new AbortController();
    const leaseMs = kind.leaseMs ?? DEFAULT_LEASE_MS;
    const renew = setInterval(() => {
      renewLease(rt.db, job, leaseMs).then(
        (held) => held || abort.abort(),
        () => undefined,
      );
    }, leaseMs / 3);
    renew.unref();
    const started = performance.now();
    const beside = kind.background && answering();
    const done = (async () => {
      let outcome: "ok" | "again" | Error;
      try {
        const r = await kind.run(rt, { ...job, signal: abort.signal });
        outcome = r === "again" ? "again" : "ok";
      } catch (err) {
        outcome = err instanceof Error ? err : new Error(String(err));
        if (!kind.everyMs)
          log(`job ${kind.name} ${job.id} attempt ${job.attempts} failed: ${errorLine(err)}`);
        else if (!failing.has(kind.name))
          log(`job ${kind.name} failed, retrying every ${kind.everyMs} ms: ${errorLine(err)}`);
      }
      if (kind.everyMs) {
        if (outcome instanceof Error) failing.add(kind.name);
        else failing.delete(kind.name);
      }
      clearInterval(renew);
      await settleJob(rt.db, job, settle(kind, job, outcome)).catch((err: unknown) =>
        log(
          `job ${kind.name} ${job.id}: could not record its end (${errorLine(err)}); its lease will run out`,
        ),
      );
      // Recording the end is the job's work too: its query competes with the requests' for the pool.
      if (beside || (kind.background && answering())) rest(kind, performance.now() - started);
    })().finally(() => {
      running.delete(job.id);
      loops.get(kind.name)?.wake();
    });
    running.set(job.id, { done, abort, job, kind });
  };

  for (const kind of kinds) {
    const concurrency = kind.concurrency ?? 1;
    if (kind.perInstance) {
      const signal = new AbortController().signal;
      const job = { id: 0n, payload: null, attempts: 1, resumed: false, signal };
      loops.set(
        kind.name,
        startLoop({
          name: `job ${kind.name}`,
          everyMs: kind.everyMs ?? 60_000,
          log,
          round: () => run(kind, job),
        }),
      );
      continue;
    }
    // A periodic row is due every `everyMs`; looking a few times per period keeps it near its time.
    const pollMs =
      kind.pollMs ?? (kind.everyMs ? Math.max(1_000, Math.min(kind.everyMs / 4, 15_000)) : 1_000);
    const loop = startLoop({
      name: `job ${kind.name}`,
      everyMs: pollMs,
      log,
      round: async () => {
        if (stopping) return false;
        const mine = [...running.values()].filter((r) => r.kind === kind).length;
        // A poll (tests, the CLI) asks for the kind's due work now: no yielding to requests.
        const yielding = kind.background && !polling.has(kind.name);
        if (yielding && (resting(kind) || (mine > 0 && answering()))) return false;
        const free = (yielding && answering() ? 1 : concurrency) - mine;
        if (free <= 0) return false;
        const claimed = await claimJobs(rt.db, kind.name, free, kind.leaseMs ?? DEFAULT_LEASE_MS);
        for (const job of claimed) execute(kind, job);
        return false;
      },
    });
    loops.set(kind.name, loop);
  }

  const runner: Runner = {
    wake: (name) => loops.get(name)?.wake(),
    poll: async (name) => {
      polling.add(name);
      try {
        await loops.get(name)?.poll();
      } finally {
        polling.delete(name);
      }
      await Promise.all([...running.values()].filter((r) => r.kind.name === name).map((r) => r.done));
    },
    stop: async (withinMs = 10_000) => {
      stopping = true;
      for (const t of restTimers.values()) clearTimeout(t);
      restTimers.clear();
      await Promise.all([...loops.values()].map((l) => l.stop()));
      const inFlight = [...running.values()];
      for (const r of inFlight) r.abort.abort();
      await Promise.race([
        Promise.all(inFlight.map((r) => r.done)),
        new Promise<void>((r) => setTimeout(r, withinMs).unref()),
      ]);
      // Handlers that did not stop in time: their jobs are due again for the next claimer, not after their lease.
      // Their handlers may still write; the claim guard keeps them from recording anything on the released rows.
      for (const r of running.values())
        await settleJob(rt.db, r.job, { kind: "again", afterMs: 0, error: null }).catch(() => undefined);
      running.clear();
      runners().delete(rt);
    },
    busy: () =>
      Object.fromEntries(
        kinds.map((k) => [
          k.name,
          (loops.get(k.name)?.busy() ?? false) || [...running.values()].some((r) => r.kind === k),
        ]),
      ),
  };
  runners().set(rt, runner);
  return runner;
}
