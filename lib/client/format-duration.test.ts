import { describe, expect, it } from "vitest";
import { durationAxis, durationCell, formatDuration } from "./format-duration";

describe("formatDuration", () => {
  it.for<[number, string]>([
    [0, "0 s"],
    [0.4, "0 s"],
    [20, "20 s"],
    [20.4, "20 s"],
    [59.4, "59 s"],
    [59.6, "1 min"],
    [60, "1 min"],
    [130, "2 min 10 s"],
    [3599, "59 min 59 s"],
    [3600, "1 h"],
    [3629, "1 h"],
    [3630, "1 h 1 min"],
    [11_100, "3 h 5 min"],
    [86_399, "1 d"],
    [187_200, "2 d 4 h"],
  ])("%s seconds read %s", ([s, want]) => {
    expect(formatDuration(s)).toBe(want);
  });

  it("never shows a negative time (clock skew between parts)", () => {
    expect(formatDuration(-3)).toBe("0 s");
  });

  it("leaves a day without a sample empty in a table", () => {
    expect(durationCell(null)).toBe("");
    expect(durationCell(20)).toBe("20 s");
  });
});

describe("durationAxis", () => {
  it.for<[number, string, number]>([
    [0, "Seconds", 1],
    [20, "Seconds", 1],
    [119, "Seconds", 1],
    [120, "Minutes", 60],
    [5399, "Minutes", 60],
    [7200, "Hours", 3600],
    [172_800, "Days", 86_400],
  ])("a largest value of %s s gives an axis in %s", ([max, label, per]) => {
    expect(durationAxis(max)).toEqual({ label, per });
  });
});
