import { describe, expect, it } from "vitest";
import { isOpen, officeHoursSchema, type OfficeHours } from "./office-hours";

const WEEKDAYS_9_TO_5: OfficeHours = {
  weekly: {
    mon: [["09:00", "17:00"]],
    tue: [["09:00", "17:00"]],
    wed: [
      ["09:00", "12:00"],
      ["13:00", "17:00"],
    ],
    thu: [["09:00", "17:00"]],
    fri: [["09:00", "17:00"]],
  },
  holidays: ["2026-12-25"],
};

describe("isOpen", () => {
  it("is always open without office hours", () => {
    expect(isOpen(null, "Europe/Paris", new Date("2026-12-26T03:00:00Z"))).toBe(true);
  });

  it("reads the ranges in the app's zone: 9:00 in Paris is 8:00 UTC in winter, 7:00 in summer", () => {
    // Tuesday 1 December 2026, CET (UTC+1).
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-01T07:59:00Z"))).toBe(false);
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-01T08:00:00Z"))).toBe(true);
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-01T15:59:00Z"))).toBe(true);
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-01T16:00:00Z"))).toBe(false);
    // Tuesday 7 July 2026, CEST (UTC+2).
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-07-07T06:59:00Z"))).toBe(false);
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-07-07T07:00:00Z"))).toBe(true);
    // The same instant is Monday evening in New York: closed.
    expect(isOpen(WEEKDAYS_9_TO_5, "America/New_York", new Date("2026-12-01T03:00:00Z"))).toBe(false);
  });

  it("keeps a lunch break, closes weekends and holidays", () => {
    // Wednesday 2 December 2026, 12:30 in Paris.
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-02T11:30:00Z"))).toBe(false);
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-02T12:30:00Z"))).toBe(true);
    // Saturday 5 December.
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-05T10:00:00Z"))).toBe(false);
    // Friday 25 December, a holiday.
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-25T10:00:00Z"))).toBe(false);
    expect(isOpen(WEEKDAYS_9_TO_5, "Europe/Paris", new Date("2026-12-24T10:00:00Z"))).toBe(true);
  });

  it("runs a range past midnight into the next day, the day it started deciding holidays", () => {
    const nights: OfficeHours = { weekly: { fri: [["22:00", "02:00"]] }, holidays: ["2026-12-11"] };
    // Friday 4 December 23:00 UTC and Saturday 01:59, then 02:00.
    expect(isOpen(nights, "UTC", new Date("2026-12-04T21:59:00Z"))).toBe(false);
    expect(isOpen(nights, "UTC", new Date("2026-12-04T23:00:00Z"))).toBe(true);
    expect(isOpen(nights, "UTC", new Date("2026-12-05T01:59:00Z"))).toBe(true);
    expect(isOpen(nights, "UTC", new Date("2026-12-05T02:00:00Z"))).toBe(false);
    // Friday 11 December is a holiday: its night, Saturday's small hours included, stays closed.
    expect(isOpen(nights, "UTC", new Date("2026-12-11T23:00:00Z"))).toBe(false);
    expect(isOpen(nights, "UTC", new Date("2026-12-12T01:00:00Z"))).toBe(false);
  });

  it("crosses a daylight-saving change on local time: 9:00 stays 9:00", () => {
    const daily: OfficeHours = { weekly: { sun: [["09:00", "10:00"]], mon: [["09:00", "10:00"]] } };
    // Sunday 29 March 2026 (Paris goes to UTC+2 at 2:00): 9:00 local is 7:00 UTC.
    expect(isOpen(daily, "Europe/Paris", new Date("2026-03-29T07:30:00Z"))).toBe(true);
    expect(isOpen(daily, "Europe/Paris", new Date("2026-03-29T08:30:00Z"))).toBe(false);
  });
});

describe("officeHoursSchema", () => {
  it("refuses times that are not HH:MM, empty ranges, unknown days and bad dates", () => {
    const bad = (v: unknown) => officeHoursSchema.safeParse(v).success;
    expect(bad({ weekly: { mon: [["9:00", "17:00"]] } })).toBe(false);
    expect(bad({ weekly: { mon: [["09:00", "24:00"]] } })).toBe(false);
    expect(bad({ weekly: { mon: [["09:00", "09:00"]] } })).toBe(false);
    expect(bad({ weekly: { monday: [["09:00", "17:00"]] } })).toBe(false);
    expect(bad({ weekly: {}, holidays: ["25/12/2026"] })).toBe(false);
    expect(bad(WEEKDAYS_9_TO_5)).toBe(true);
  });
});
