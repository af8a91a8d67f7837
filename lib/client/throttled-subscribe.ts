import type { SubscribeAck } from "../contract/socket";

/** A subscribe's ack, of which only `error` and `retry_after` say whether, and when, to send it again. */
type Refusal = Partial<SubscribeAck>;

const THROTTLED_FIRST_MS = 2000;
const THROTTLED_MAX_MS = 30_000;

/**
 * How long to wait before repeating a subscribe the server refused as Throttled (undefined: it was not): the
 * server's hint when the ack has one, else 2 s, 4 s, 8 s ... up to 30 s by the number of refusals in a row so far.
 * A throttled subscribe is refused whole (replaying without its catch-up would miss messages), so it must be retried.
 */
export function throttledRetryMs(ack: Refusal | undefined, refusalsSoFar: number): number | undefined {
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
  retried(ack: Refusal | undefined, resend: () => void): boolean {
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
