import { describe, expect, it } from "vitest";
import { isoNoOffset } from "./system-props";

describe("isoNoOffset", () => {
  it("writes UTC to the second, without milliseconds or Z", () => {
    expect(isoNoOffset(new Date("2026-12-03T13:05:09.123Z"))).toBe("2026-12-03T13:05:09");
    expect(isoNoOffset(new Date("0001-01-01T00:00:00.000Z"))).toBe("0001-01-01T00:00:00");
  });

  it("keeps a six-digit year whole", () => {
    expect(isoNoOffset(new Date("+012345-06-07T08:09:10.500Z"))).toBe("+012345-06-07T08:09:10");
    expect(isoNoOffset(new Date(8.64e15))).toBe("+275760-09-13T00:00:00");
  });
});
