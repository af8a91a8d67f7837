import { errorLine } from "../db/client";
import type { Runtime } from "../server/runtime";
import type { Job } from "../server/jobs";
import {
  claimDue,
  recordAttempt,
  recordSuccesses,
  webhookBody,
  webhookMessageId,
  type Backoff,
  type Claimed,
} from "./deliveries";
import { sendWebhook } from "./send";
import { DAY_MS, HOUR_MS, purgeEventLog } from "../eventlog/retention";
import { takeQueued } from "../eventlog/webhook-state";

export interface DispatcherOptions extends Backoff {
  /** Deliveries claimed per statement. */
  batch: number;
  /** Sends in flight at once. */
  concurrency: number;
  /** How long a claimed delivery is reserved for its sender; well above the 10 s send timeout. */
  leaseMs: number;
}

/** The fallback poll's interval. */
export const POLL_EVERY_MS = 500;

export const DEFAULTS: DispatcherOptions = {
  batch: 100,
  concurrency: 32,
  leaseMs: 60_000,
  retryBaseMs: 5_000,
  retryMaxMs: HOUR_MS,
  retryWindowMs: DAY_MS,
};

export interface Dispatcher {
  /** Mutable: tests shorten the backoff of a running server. */
  options: DispatcherOptions;
  /** Runs a round now (or right after the one in progress). */
  wake(): void;
  /** Runs a round now, or joins the one in progress; resolves when it ends (the registry's fallback poll). */
  poll(): Promise<void>;
  stop(): Promise<void>;
}

const running = new WeakMap<Runtime, Dispatcher>();

/** The dispatcher a server started, if any. */
export function webhookDispatcher(rt: Runtime): Dispatcher | undefined {
  return running.get(rt);
}

/**
 * Sends webhook deliveries from the database: polled, and woken right after a commit that queued some. Nothing
 * is kept in memory that the database does not also hold, so a killed process loses nothing: its deliveries are
 * due again after a restart (or, if they were mid-send, when their lease ends).
 */
export function startWebhookDispatcher(rt: Runtime, opts: Partial<DispatcherOptions> = {}): Dispatcher {
  const options: DispatcherOptions = { ...DEFAULTS, ...opts };
  const abort = new AbortController();
  let stopped = false;
  let current: Promise<void> | undefined;
  let again = false;
  // A test setting: committed deliveries wait, so that a test can kill the process before their first attempt.
  const sendFrom = Date.now() + rt.config.webhookDispatchDelayMs;

  const live = () => !stopped;

  const send = (d: Claimed) =>
    sendWebhook({
      url: d.url,
      secret: d.secret,
      id: webhookMessageId(d.id),
      body: webhookBody(d),
      allowPrivate: rt.config.webhookAllowPrivate,
      signal: abort.signal,
    });

  /**
   * Sends a claimed batch, `concurrency` at a time, then records it: the successes in one statement, failures one
   * by one (each has its own backoff). Recorded even when the round is cut short, so that no attempt is repeated
   * for want of its record.
   */
  const deliverAll = async (claimed: Claimed[]) => {
    const ok: { d: Claimed; status: number | null }[] = [];
    const failed: { d: Claimed; outcome: Awaited<ReturnType<typeof send>> }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const d = claimed[next++]!;
        const outcome = await send(d);
        if (outcome.ok) ok.push({ d, status: outcome.status });
        else failed.push({ d, outcome });
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, claimed.length) }, worker));
    await recordSuccesses(rt.db, ok);
    for (const f of failed) await recordAttempt(rt.db, f.d, f.outcome, options);
  };

  let failing = false;
  const round = async () => {
    try {
      for (;;) {
        if (!live()) return;
        const claimed = await claimDue(rt.db, options.batch, options.leaseMs);
        await deliverAll(claimed);
        if (claimed.length < options.batch) break;
      }
      failing = false;
    } catch (err) {
      // Caught here rather than by the job registry: a round also runs on commit, outside its ticks. Retried by the
      // next poll: one line per outage (a database restart), not one per poll.
      if (live() && !failing) console.error("webhook dispatcher failed, retrying:", errorLine(err));
      failing = true;
    }
  };

  const wake = () => {
    if (!live() || Date.now() < sendFrom) return;
    if (current) {
      again = true;
      return;
    }
    current = round().finally(() => {
      current = undefined;
      if (again) {
        again = false;
        wake();
      }
    });
  };

  const onCommit = (eventIds: bigint[]) => {
    if (takeQueued(eventIds)) wake();
  };
  rt.afterCommit.push(onCommit);

  const poll = async () => {
    wake();
    await current;
  };

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const i = rt.afterCommit.indexOf(onCommit);
    if (i >= 0) rt.afterCommit.splice(i, 1);
    running.delete(rt);
    // Sends in flight get a moment to finish; the rest are cut off and their leases bring them back later.
    const inFlight = current;
    if (inFlight) {
      await Promise.race([inFlight, new Promise((r) => setTimeout(r, 5_000).unref())]);
      abort.abort();
      await inFlight;
    }
  };

  const d: Dispatcher = { options, wake, poll, stop };
  running.set(rt, d);
  return d;
}

/** The dispatcher's fallback poll: a commit wakes it at once, this catches what no commit here announced. */
export const webhookPollJob: Job = {
  name: "webhook dispatcher",
  everyMs: POLL_EVERY_MS,
  run: async (rt) => webhookDispatcher(rt)?.poll(),
};

/** Hourly, and a minute after start so that a process restarted more often still purges. */
export const eventLogPurgeJob: Job = {
  name: "event log purge",
  everyMs: HOUR_MS,
  firstAfterMs: 60_000,
  run: (rt) => purgeEventLog(rt.db),
};
