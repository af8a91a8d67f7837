import { describe, expect, it } from "vitest";
import { presetRange, previousRange, rangeDays } from "./report-range";

describe("the Reports' ranges", () => {
  it("counts both ends", () => {
    expect(rangeDays("2026-03-01", "2026-03-01")).toBe(1);
    expect(rangeDays("2026-02-22", "2026-02-28")).toBe(7);
  });

  it("puts the previous period just before, with as many days", () => {
    expect(previousRange("2026-02-22", "2026-02-28")).toEqual({ from: "2026-02-15", to: "2026-02-21" });
    expect(previousRange("2026-03-01", "2026-03-01")).toEqual({ from: "2026-02-28", to: "2026-02-28" });
    // Across a month of 29 days and a daylight-saving change: calendar days, not 24-hour steps.
    expect(previousRange("2024-03-01", "2024-03-31")).toEqual({ from: "2024-01-30", to: "2024-02-29" });
  });

  it("a preset's previous period is as long as the preset", () => {
    const r = presetRange("30d", "UTC", new Date("2026-03-10T12:00:00Z"));
    const p = previousRange(r.from, r.to);
    expect(rangeDays(p.from, p.to)).toBe(30);
    expect(p.to).toBe("2026-02-08");
  });
});
