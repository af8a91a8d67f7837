import type { Runtime } from "../server/runtime";
import { countDelivery } from "../server/metrics";
import type { JobKind } from "../jobs/runner";
import { startLoop } from "../jobs/loop";
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
import { purgeFinishedJobs } from "../jobs/store";

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
  /** Whether its poll timer or a round is alive (tests: nothing is left after stop). */
  busy(): boolean;
}

const running = new WeakMap<Runtime, Dispatcher>();

/** The dispatcher a server started, if any. */
export function webhookDispatcher(rt: Runtime): Dispatcher | undefined {
  return running.get(rt);
}

/**
 * Sends webhook deliveries from the database, on the runner's loop (lib/jobs/loop.ts): polled, and woken right
 * after a commit that queued some. Deliveries are not rows of `jobs`: each is a record the API shows (attempts,
 * response code), claimed a batch at a time under the lease of its `next_attempt_at`. Nothing is kept in memory
 * that the database does not also hold, so a killed process loses nothing: its deliveries are due again after a
 * restart (or, if they were mid-send, when their lease ends).
 */
export function startWebhookDispatcher(rt: Runtime, opts: Partial<DispatcherOptions> = {}): Dispatcher {
  const options: DispatcherOptions = { ...DEFAULTS, ...opts };
  const abort = new AbortController();
  // A test setting: committed deliveries wait, so that a test can kill the process before their first attempt.
  const sendFrom = Date.now() + rt.config.webhookDispatchDelayMs;

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
    countDelivery("webhook", "delivered", ok.length);
    countDelivery("webhook", "failed_attempt", failed.length);
    await recordSuccesses(rt.db, ok);
    for (const f of failed) await recordAttempt(rt.db, f.d, f.outcome, options);
  };

  const loop = startLoop({
    name: "webhook dispatcher",
    everyMs: POLL_EVERY_MS,
    round: async () => {
      if (Date.now() < sendFrom) return false;
      const claimed = await claimDue(rt.db, options.batch, options.leaseMs);
      await deliverAll(claimed);
      return claimed.length === options.batch;
    },
  });

  const onCommit = (eventIds: bigint[]) => {
    if (takeQueued(eventIds)) loop.wake();
  };
  rt.afterCommit.push(onCommit);

  const stop = async () => {
    const i = rt.afterCommit.indexOf(onCommit);
    if (i >= 0) rt.afterCommit.splice(i, 1);
    running.delete(rt);
    // Sends in flight get a moment to finish; the rest are cut off and their leases bring them back later.
    const ended = loop.stop();
    await Promise.race([ended, new Promise((r) => setTimeout(r, 5_000).unref())]);
    abort.abort();
    await ended;
  };

  const d: Dispatcher = {
    options,
    wake: () => loop.wake(),
    poll: () => loop.poll(),
    stop,
    busy: () => loop.busy(),
  };
  running.set(rt, d);
  return d;
}

/** Hourly, the first a minute after the row is made; finished jobs go with the old log rows. */
export const eventLogPurgeJob: JobKind = {
  name: "event log purge",
  everyMs: HOUR_MS,
  firstAfterMs: 60_000,
  run: async (rt) => {
    await purgeEventLog(rt.db);
    await purgeFinishedJobs(rt.db);
  },
};
