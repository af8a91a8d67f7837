import { describe, expect, it } from "vitest";
import { DAY_PROBLEM, LAST_SECOND, MAX_TIME, MIN_TIME, parseDay } from "./dates";
import { p, zodFields } from "./zod";

describe("the API's dates: years 1 to 9999", () => {
  it("parses real days within the years", () => {
    expect(parseDay("0001-01-01")).toBe(MIN_TIME);
    expect(parseDay("9999-12-31")).toBe(Date.parse("9999-12-31T00:00:00Z"));
    expect(parseDay("2024-02-29")).toBe(Date.parse("2024-02-29T00:00:00Z"));
  });

  it.each([
    "0000-01-01",
    "0000-12-31",
    "10000-01-01",
    "+010000-01-01",
    "2023-02-29",
    "2024-13-01",
    "2024-1-01",
    "",
  ])("refuses %j", (s) => {
    expect(parseDay(s)).toBeUndefined();
  });

  it("ends with the last second of 9999", () => {
    expect(new Date(MAX_TIME).toISOString()).toBe("9999-12-31T23:59:59.999Z");
    expect(new Date(LAST_SECOND * 1000).toISOString()).toBe("9999-12-31T23:59:59.000Z");
  });

  it("p.day takes a trimmed day (the last of a repeated one) and names the problem otherwise", () => {
    const schema = p.day();
    expect(schema.parse(" 2026-03-01 ")).toBe("2026-03-01");
    expect(schema.parse(["2026-01-01", "2026-03-01"])).toBe("2026-03-01");
    for (const bad of ["0000-01-01", "10000-01-01", "2026-02-30", 20260301, null]) {
      const r = schema.safeParse(bad, { reportInput: true });
      expect(r.success, String(bad)).toBe(false);
      if (!r.success) expect(zodFields(r.error)).toEqual({ params: DAY_PROBLEM });
    }
  });
});
