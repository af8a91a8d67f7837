import { describe, expect, test } from "vitest";
import { errorAt, rangeErrorAt, toForm, toHours } from "./office-hours-state";

describe("the office-hours editor's state", () => {
  test("reads the API's hours and writes them back as they were", () => {
    const hours = {
      weekly: {
        mon: [["09:00", "12:00"] as [string, string], ["13:00", "17:00"] as [string, string]],
        fri: [["22:00", "02:00"] as [string, string]],
      },
      holidays: ["2026-12-25"],
    };
    const form = toForm(hours);
    expect(form.always).toBe(false);
    expect(form.days.mon.ranges.map((r) => [r.from, r.to])).toEqual(hours.weekly.mon);
    // A closed day keeps a range ready for when it is switched on; it is not sent while off.
    expect(form.days.tue).toMatchObject({ open: false, ranges: [{ from: "09:00", to: "17:00" }] });
    expect(toHours(form)).toEqual(hours);
  });

  test("null is Always open, with weekdays 9 to 5 ready; Always open sends null", () => {
    const form = toForm(null);
    expect(form.always).toBe(true);
    expect(toHours(form)).toBeNull();
    expect(toHours({ ...form, always: false })).toEqual({
      weekly: Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((d) => [d, [["09:00", "17:00"]]])),
      holidays: [],
    });
  });

  test("finds the API's errors of a row and says which input is at fault", () => {
    const fields = {
      "office_hours.weekly.tue.1": "must not start and end at the same time",
      "office_hours.weekly.wed.0.1": "must be a time HH:MM (00:00 to 23:59)",
      "office_hours.holidays.0": "must be a date YYYY-MM-DD",
    };
    expect(rangeErrorAt(fields, "weekly.tue.1")).toEqual({
      message: "must not start and end at the same time",
      from: true,
      to: true,
    });
    expect(rangeErrorAt(fields, "weekly.wed.0")).toEqual({
      message: "End: must be a time HH:MM (00:00 to 23:59)",
      from: false,
      to: true,
    });
    expect(errorAt(fields, "holidays.0")).toBe("must be a date YYYY-MM-DD");
    expect(rangeErrorAt(fields, "weekly.tue.0")).toBeUndefined();
    // A day's or the list's own errors only: a range or a holiday is not theirs.
    expect(errorAt(fields, "weekly.tue")).toBeUndefined();
    expect(errorAt(fields, "holidays")).toBeUndefined();
    // Not a prefix match: range 1 is not range 10.
    expect(rangeErrorAt({ "office_hours.weekly.tue.10": "x" }, "weekly.tue.1")).toBeUndefined();
  });
});
