import { describe, expect, it } from "vitest";
import { findLoop, loopText, type ChainLink } from "./loops";
import { urlMatches } from "./triggers";
import { inControl } from "./consumer";

const link = (id: number, event: string, timeoutSeconds = 0, message?: number): ChainLink => ({
  id: BigInt(id),
  name: `M${id}`,
  trigger: { event, ...(message === undefined ? {} : { message: BigInt(message) }) },
  timeoutSeconds,
});

describe("message loops", () => {
  it("finds a chain back to the start within 30 s, and names it", () => {
    const a = link(1, "$message_sent", 0, 2);
    const b = link(2, "$message_read", 10, 1);
    const loop = findLoop(a, [b]);
    expect(loop?.map((m) => m.id)).toEqual([1n, 2n]);
    expect(loopText(loop!)).toBe('"M1" (1) → "M2" (2) → "M1" (1)');
  });

  it("is no loop when the timeouts add up to 30 s or more, or nothing comes back", () => {
    expect(findLoop(link(1, "$message_sent", 20, 2), [link(2, "$message_read", 10, 1)])).toBeNull();
    expect(findLoop(link(1, "visited"), [link(2, "$message_read", 0, 1)])).toBeNull();
    expect(findLoop(link(1, "$message_sent", 0, 3), [link(2, "$message_read", 0, 1)])).toBeNull();
  });

  it("counts a message event of any message as a trigger from every message, itself included", () => {
    expect(findLoop(link(1, "$message_sent"), [])?.map((m) => m.id)).toEqual([1n]);
    expect(findLoop(link(1, "$message_sent", 45), [])).toBeNull();
  });
});

describe("URL patterns", () => {
  it("matches the whole URL, * as any run, other characters literally, case-insensitively", () => {
    expect(urlMatches("https://shop.test/pricing*", "https://shop.test/pricing?plan=pro")).toBe(true);
    expect(urlMatches("https://shop.test/pricing*", "https://shop.test/about")).toBe(false);
    expect(urlMatches("*/CART", "https://shop.test/cart")).toBe(true);
    expect(urlMatches("https://shop.test/a.b", "https://shop.test/aXb")).toBe(false);
    expect(urlMatches("https://shop.test/", "https://shop.test/x")).toBe(false);
  });
});

describe("control group", () => {
  it("holds back about the share asked, the same users every time", () => {
    const held = Array.from({ length: 2000 }, (_, i) => inControl(7n, BigInt(i), 20)).filter(Boolean).length;
    expect(held).toBeGreaterThan(340);
    expect(held).toBeLessThan(460);
    expect(inControl(7n, 5n, 20)).toBe(inControl(7n, 5n, 20));
    expect(inControl(7n, 5n, 0)).toBe(false);
  });
});
