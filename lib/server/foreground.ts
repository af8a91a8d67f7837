import { performance } from "node:perf_hooks";

/**
 * Whether this process is busy answering requests: background jobs (email) yield to them. The HTTP server counts
 * the requests it holds; "answering" lasts a moment past the last one, so that a client's next request, on its way,
 * still counts as the load it is. Busy means answering while the event loop is mostly in use: light traffic
 * leaves background work at full speed.
 */
export interface Foreground {
  enter(): void;
  leave(): void;
  busy(): boolean;
}

const LINGER_MS = 100;
/** The event loop's utilization is read over windows of this length. */
const WINDOW_MS = 100;
/** Above this share of the loop in use, requests come first. */
const LOADED = 0.5;

/** Whether the event loop was mostly in use over the last window, read at most once per window. */
function loopLoad(now: () => number): () => boolean {
  let mark = performance.eventLoopUtilization();
  let at = now();
  let loaded = false;
  return () => {
    if (now() - at >= WINDOW_MS) {
      loaded = performance.eventLoopUtilization(mark).utilization >= LOADED;
      mark = performance.eventLoopUtilization();
      at = now();
    }
    return loaded;
  };
}

export function foreground(opts: { now?: () => number; loaded?: () => boolean } = {}): Foreground {
  const now = opts.now ?? performance.now.bind(performance);
  const loaded = opts.loaded ?? loopLoad(now);
  let inFlight = 0;
  let lastLeft = -Infinity;
  return {
    enter: () => void inFlight++,
    leave: () => {
      inFlight--;
      lastLeft = now();
    },
    busy: () => (inFlight > 0 || now() - lastLeft < LINGER_MS) && loaded(),
  };
}

/**
 * The share of wall time a background kind's jobs may take while the server is busy: after a job that ran then,
 * its kind rests so that jobs and rests keep this ratio. The jobs run at their full concurrency again as soon as
 * the server is not busy, so a backlog that built under load is sent then.
 */
export const BACKGROUND_SHARE = 0.2;

/** How long a background kind rests after a job of `elapsedMs` that ran while the server was busy. */
export const restAfter = (elapsedMs: number, share = BACKGROUND_SHARE) => (elapsedMs * (1 - share)) / share;
