/** The timers a throttle runs on: the browser's, or a test's. */
export interface Clock {
  now(): number;
  after(ms: number, fn: () => void): unknown;
  cancel(handle: unknown): void;
}

const browserClock: Clock = {
  now: () => Date.now(),
  after: (ms, fn) => setTimeout(fn, ms),
  cancel: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * The visitor's typing as operators should see it, with at most one request per window: the first keystroke at
 * once (the indicator appears without delay), the latest text once more at the window's end if typing went on (so
 * the operators' indicator, which lapses on its own, stays up while the visitor types, with the current text), an
 * empty body when the composer is emptied (the indicator goes at once), and nothing after a send (the message
 * itself ends the indicator, and a late trailing update would bring it back).
 */
export class TypingThrottle {
  private sentAt: number | undefined;
  private pending: string | undefined;
  private timer: unknown;

  constructor(
    private readonly send: (body: string) => void,
    private readonly everyMs = 3000,
    private readonly clock: Clock = browserClock,
  ) {}

  /** The composer holds `body` now. */
  typed(body: string) {
    if (!body.trim()) return this.cleared();
    const now = this.clock.now();
    if (this.sentAt === undefined || now - this.sentAt >= this.everyMs) {
      this.pending = undefined;
      this.emit(body, now);
      return;
    }
    this.pending = body;
    this.timer ??= this.clock.after(this.sentAt + this.everyMs - now, () => this.flush());
  }

  /** The visitor emptied the composer: a stop, if the operators were told anything. */
  cleared() {
    const told = this.sentAt !== undefined;
    this.reset();
    if (told) this.send("");
  }

  /** The message was sent: nothing more to say about it. */
  sent() {
    this.reset();
  }

  private flush() {
    this.timer = undefined;
    const body = this.pending;
    this.pending = undefined;
    if (body !== undefined) this.emit(body, this.clock.now());
  }

  private emit(body: string, now: number) {
    this.sentAt = now;
    this.send(body);
  }

  private reset() {
    if (this.timer !== undefined) this.clock.cancel(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    this.sentAt = undefined;
  }
}
