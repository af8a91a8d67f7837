/** A subscribe's ack, as the server's hub sends it (lib/realtime/hub.ts subscribe). */
export interface SubscribeAck {
  subscribed?: string[];
  refused?: string[];
  /** Live delivery starts after it: the subscription covers every event past it. */
  position?: number;
  /** The replay from `after` is incomplete: retention purged messages after it (ids up to `complete_after`). */
  gap?: boolean;
  complete_after?: number;
  /** "Throttled": too many long replays on this socket lately; nothing was subscribed. */
  error?: string;
  /** Seconds to wait before subscribing again, when the server says. */
  retry_after?: number;
}

const THROTTLED_FIRST_MS = 2000;
const THROTTLED_MAX_MS = 30_000;

/**
 * How long to wait before repeating a subscribe the server refused as Throttled (undefined: it was not): the
 * server's hint when the ack has one, else 2 s, 4 s, 8 s ... up to 30 s by the number of refusals in a row so far.
 * A throttled subscribe is refused whole (replaying without its catch-up would miss messages), so it must be retried.
 */
export function throttledRetryMs(ack: SubscribeAck | undefined, refusalsSoFar: number): number | undefined {
  if (ack?.error !== "Throttled") return undefined;
  const hint = ack.retry_after;
  if (typeof hint === "number" && Number.isFinite(hint) && hint > 0)
    return Math.min(hint * 1000, THROTTLED_MAX_MS);
  return Math.min(THROTTLED_FIRST_MS * 2 ** Math.min(refusalsSoFar, 10), THROTTLED_MAX_MS);
}

/**
 * The socket's throttled subscribes: each is repeated after throttledRetryMs, unless its connection has ended by
 * then (a retry dies with its connection: the next one subscribes afresh).
 */
export class ThrottledRetries {
  /** Throttled subscribes in a row. */
  inARow = 0;
  /** Which connection the retries belong to. */
  private connection = 0;

  /** A connection began or ended: retries scheduled so far are dropped and the count starts over. */
  reset(): void {
    this.connection++;
    this.inARow = 0;
  }

  /** When the ack refused the subscribe as Throttled, schedules `resend` and says so. */
  retried(ack: SubscribeAck | undefined, resend: () => void): boolean {
    const wait = throttledRetryMs(ack, this.inARow);
    if (wait === undefined) return false;
    this.inARow++;
    const connection = this.connection;
    setTimeout(() => {
      if (connection === this.connection) resend();
    }, wait);
    return true;
  }

  /** A subscribe went through: whether it ended a run of throttled ones. */
  cleared(): boolean {
    const had = this.inARow > 0;
    this.inARow = 0;
    return had;
  }
}
