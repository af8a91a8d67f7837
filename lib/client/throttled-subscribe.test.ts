import { afterEach, describe, expect, it, vi } from "vitest";
import { ThrottledRetries, throttledRetryMs } from "./throttled-subscribe";

describe("a subscribe refused as Throttled", () => {
  const throttled = { subscribed: [], refused: ["event.1"], error: "Throttled" };

  it("is retried after 2 s, 4 s, 8 s ... up to 30 s by the refusals in a row", () => {
    const waits = [0, 1, 2, 3, 4, 5, 50].map((n) => throttledRetryMs(throttled, n));
    expect(waits).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("waits as long as the server's hint says when the ack has one (still at most 30 s)", () => {
    expect(throttledRetryMs({ ...throttled, retry_after: 3 }, 4)).toBe(3000);
    expect(throttledRetryMs({ ...throttled, retry_after: 600 }, 0)).toBe(30_000);
    expect(throttledRetryMs({ ...throttled, retry_after: -1 }, 0)).toBe(2000);
  });

  it("is the only refusal retried: other acks are handled as they are", () => {
    expect(throttledRetryMs({ subscribed: ["event.1"], refused: [] }, 0)).toBeUndefined();
    expect(
      throttledRetryMs({ subscribed: [], refused: ["event.1"], error: "ValidationError" }, 0),
    ).toBeUndefined();
    expect(throttledRetryMs(undefined, 0)).toBeUndefined();
  });
});

describe("ThrottledRetries", () => {
  const throttled = { subscribed: [], refused: ["event.1"], error: "Throttled" };
  afterEach(() => void vi.useRealTimers());

  it("resends after the backoff, counts refusals in a row, and drops a retry whose connection ended", () => {
    vi.useFakeTimers();
    const r = new ThrottledRetries();
    const resend = vi.fn();
    expect(r.retried({ subscribed: ["event.1"] }, resend)).toBe(false);
    expect(r.retried(throttled, resend)).toBe(true);
    expect(r.retried(throttled, resend)).toBe(true);
    expect(r.inARow).toBe(2);
    vi.advanceTimersByTime(2000);
    expect(resend).toHaveBeenCalledTimes(1);
    r.reset();
    vi.advanceTimersByTime(30_000);
    expect(resend).toHaveBeenCalledTimes(1);
    expect(r.inARow).toBe(0);
    r.retried(throttled, resend);
    expect(r.cleared()).toBe(true);
    expect(r.cleared()).toBe(false);
  });
});
