import { errorLine } from "../db/client";
import type { Runtime } from "./runtime";

/** A periodic background task of one server. Its `run` holds the work; the timer is the registry's. */
export interface Job {
  name: string;
  everyMs: number;
  run(rt: Runtime): Promise<unknown>;
  /** Runs once at start, and `startJobs` waits for it: its effect holds before the port opens. */
  startNow?: boolean;
  /** The first run's delay when not `startNow` (default `everyMs`): an hourly job still runs soon after a restart. */
  firstAfterMs?: number;
}

export interface RunningJobs {
  /** Stops every timer, then waits (at most `stopWithinMs`) for the runs in flight. */
  stop(): Promise<void>;
  /** Per job: whether its timer is gone and no run is in flight (tests). */
  idle(): Record<string, boolean>;
}

export interface JobOptions {
  log?: (line: string) => void;
  stopWithinMs?: number;
}

interface State {
  job: Job;
  timer?: NodeJS.Timeout;
  current?: Promise<void>;
  failing: boolean;
}

/**
 * Runs each job on its interval for `rt`'s lifetime. The next run is scheduled when the previous one ends, so a
 * slow run (a database outage) never overlaps itself and runs never pile up. A failure is logged once per streak:
 * the job is retried on its interval, and a database restart must not write a line per tick.
 */
export async function startJobs(rt: Runtime, jobs: Job[], opts: JobOptions = {}): Promise<RunningJobs> {
  const log = opts.log ?? ((l: string) => console.error(l));
  let stopped = false;
  const states: State[] = jobs.map((job) => ({ job, failing: false }));

  const schedule = (s: State, ms: number) => {
    if (stopped) return;
    s.timer = setTimeout(() => {
      s.timer = undefined;
      void tick(s);
    }, ms);
    // The server's own handles keep the process up; a job's pending tick must not.
    s.timer.unref();
  };

  const tick = async (s: State): Promise<void> => {
    const run = (async () => {
      try {
        await s.job.run(rt);
        s.failing = false;
      } catch (err) {
        if (!s.failing && !stopped)
          log(`job ${s.job.name} failed, retrying every ${s.job.everyMs} ms: ${errorLine(err)}`);
        s.failing = true;
      }
    })();
    s.current = run;
    await run;
    s.current = undefined;
    schedule(s, s.job.everyMs);
  };

  for (const s of states) if (!s.job.startNow) schedule(s, s.job.firstAfterMs ?? s.job.everyMs);
  await Promise.all(states.filter((s) => s.job.startNow).map(tick));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      stopped = true;
      for (const s of states) {
        clearTimeout(s.timer);
        s.timer = undefined;
      }
      const inFlight = states.flatMap((s) => (s.current ? [s.current] : []));
      if (!inFlight.length) return;
      await Promise.race([
        Promise.all(inFlight),
        new Promise<void>((r) => setTimeout(r, opts.stopWithinMs ?? 5_000).unref()),
      ]);
    })());

  const idle = () => Object.fromEntries(states.map((s) => [s.job.name, !s.current && !s.timer]));

  return { stop, idle };
}
