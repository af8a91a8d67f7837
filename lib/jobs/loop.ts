import { errorLine } from "../db/client";

/**
 * One queue's loop in one process: a round drains what is due, runs again at once while it reports more, and
 * otherwise waits for a wake (a commit that queued work) or the fallback poll. Rounds never overlap; a wake during
 * one runs another right after. A failing round is logged once per streak: a database restart must not write a
 * line per poll.
 */
export interface Loop {
  /** Runs a round now (or right after the one in progress). */
  wake(): void;
  /** Runs a round now or joins the one in progress; resolves when it ends. */
  poll(): Promise<void>;
  /** No more rounds; resolves when the one in flight has ended. */
  stop(): Promise<void>;
  /** Whether a timer or round is alive (tests: nothing is left after stop). */
  busy(): boolean;
}

export interface LoopOptions {
  name: string;
  /** The fallback poll: what no wake announced (another instance's commit, a retry coming due) is found by it. */
  everyMs: number;
  /** One round; resolves true when there is more to do right away. */
  round(): Promise<boolean>;
  log?: (line: string) => void;
}

export function startLoop(opts: LoopOptions): Loop {
  const log = opts.log ?? ((l: string) => console.error(l));
  let stopped = false;
  let current: Promise<void> | undefined;
  let again = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;

  const run = async () => {
    try {
      while (!stopped && (await opts.round()));
      failing = false;
    } catch (err) {
      if (!stopped && !failing)
        log(`${opts.name} failed, retrying every ${opts.everyMs} ms: ${errorLine(err)}`);
      failing = true;
    }
  };

  const wake = () => {
    if (stopped) return;
    if (current) {
      again = true;
      return;
    }
    // Started on the next microtask, so that `current` is set before a round that wakes the loop itself.
    current = Promise.resolve()
      .then(run)
      .finally(() => {
        current = undefined;
        if (again) {
          again = false;
          wake();
        }
      });
  };

  const tick = () => {
    timer = setTimeout(() => {
      wake();
      tick();
    }, opts.everyMs);
    // The server's own handles keep the process up; a pending poll must not.
    timer.unref();
  };
  tick();

  return {
    wake,
    poll: async () => {
      wake();
      await current;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await current;
    },
    busy: () => timer !== undefined || current !== undefined,
  };
}
