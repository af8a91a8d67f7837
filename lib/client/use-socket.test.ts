import { describe, expect, it } from "vitest";
import { throttledRetryMs } from "./use-socket";

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
