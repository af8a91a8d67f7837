import { describe, expect, it } from "vitest";
import {
  isOpen,
  nextOpening,
  officeHoursSchema,
  OPENING_HORIZON_DAYS,
  type OfficeHours,
} from "./office-hours";

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

describe("nextOpening", () => {
  const next = (hours: OfficeHours | null, tz: string, at: string) =>
    nextOpening(hours, tz, new Date(at))?.toISOString() ?? null;

  it("is null with no office hours, when open now, and when closed for the next 14 days", () => {
    expect(next(null, "Europe/Paris", "2026-12-05T10:00:00Z")).toBeNull();
    // Tuesday 1 December 2026, 10:00 in Paris: open.
    expect(next(WEEKDAYS_9_TO_5, "Europe/Paris", "2026-12-01T09:00:00Z")).toBeNull();
    expect(next({ weekly: {} }, "UTC", "2026-12-01T09:00:00Z")).toBeNull();
    // Mondays only; the next two (7 and 14 December) are holidays, the third is past the horizon.
    const mondays: OfficeHours = { weekly: { mon: [["09:00", "17:00"]] }, holidays: ["2026-12-07"] };
    expect(next(mondays, "UTC", "2026-12-05T12:00:00Z")).toBe("2026-12-14T09:00:00.000Z");
    const both = { ...mondays, holidays: ["2026-12-07", "2026-12-14"] };
    expect(next(both, "UTC", "2026-12-05T12:00:00Z")).toBeNull();
    expect(OPENING_HORIZON_DAYS).toBe(14);
  });

  it("finds the next range start in the app's zone: after work, over lunch, over a weekend and a holiday", () => {
    // Friday 4 December 2026, 18:00 in Paris (CET): Monday 9:00.
    expect(next(WEEKDAYS_9_TO_5, "Europe/Paris", "2026-12-04T17:00:00Z")).toBe("2026-12-07T08:00:00.000Z");
    // Wednesday 2 December, 12:30: the afternoon range.
    expect(next(WEEKDAYS_9_TO_5, "Europe/Paris", "2026-12-02T11:30:00Z")).toBe("2026-12-02T12:00:00.000Z");
    // Thursday 24 December after work: Friday 25 is a holiday, so Monday 28.
    expect(next(WEEKDAYS_9_TO_5, "Europe/Paris", "2026-12-24T17:00:00Z")).toBe("2026-12-28T08:00:00.000Z");
    // Early on a workday, seconds in: that morning.
    expect(next(WEEKDAYS_9_TO_5, "Europe/Paris", "2026-12-01T07:59:30Z")).toBe("2026-12-01T08:00:00.000Z");
    // Sunday 6 December in Kolkata (UTC+5:30): Monday 9:00 is 3:30 UTC.
    expect(next(WEEKDAYS_9_TO_5, "Asia/Kolkata", "2026-12-06T12:00:00Z")).toBe("2026-12-07T03:30:00.000Z");
    // Monday 30 November, 23:00 in Chatham (UTC+13:45 in summer): Tuesday 9:00 is 19:15 UTC on Monday.
    expect(next(WEEKDAYS_9_TO_5, "Pacific/Chatham", "2026-11-30T09:15:00Z")).toBe("2026-11-30T19:15:00.000Z");
  });

  it("keeps 9:00 local across a daylight-saving change (Europe/Berlin, last Sunday of March)", () => {
    const hours: OfficeHours = { weekly: { sun: [["09:00", "17:00"]], mon: [["09:00", "17:00"]] } };
    // Saturday 28 March 2026, 13:00 CET: Sunday 9:00 is already CEST (UTC+2).
    expect(next(hours, "Europe/Berlin", "2026-03-28T12:00:00Z")).toBe("2026-03-29T07:00:00.000Z");
    // Friday 27 March, 18:00 CET, Mondays only: 9:00 CEST on 30 March.
    const mondays: OfficeHours = { weekly: { mon: [["09:00", "17:00"]] } };
    expect(next(mondays, "Europe/Berlin", "2026-03-27T17:00:00Z")).toBe("2026-03-30T07:00:00.000Z");
    // New York changes on 8 March: Friday 18:00 EST to Monday 9:00 EDT.
    expect(next(mondays, "America/New_York", "2026-03-06T23:00:00Z")).toBe("2026-03-09T13:00:00.000Z");
    // And back in autumn (Berlin, 25 October): Monday 26 October 9:00 CET.
    expect(next(mondays, "Europe/Berlin", "2026-10-23T16:00:00Z")).toBe("2026-10-26T08:00:00.000Z");
  });

  it("opens at the end of a daylight-saving gap that skips a range's start", () => {
    // Berlin skips 2:00–2:59 on 29 March 2026 (1:00 UTC is 3:00 CEST).
    const early: OfficeHours = { weekly: { sun: [["02:30", "04:00"]] } };
    expect(next(early, "Europe/Berlin", "2026-03-28T22:00:00Z")).toBe("2026-03-29T01:00:00.000Z");
    expect(isOpen(early, "Europe/Berlin", new Date("2026-03-29T00:59:00Z"))).toBe(false);
    // A range wholly inside the gap does not happen that day: the next Sunday's, 2:10 CEST.
    const skipped: OfficeHours = { weekly: { sun: [["02:10", "02:50"]] } };
    expect(next(skipped, "Europe/Berlin", "2026-03-28T22:00:00Z")).toBe("2026-04-05T00:10:00.000Z");
  });

  it("opens again in the hour a change back repeats (Europe/Berlin, 25 October 2026)", () => {
    // 3:00 CEST (1:00 UTC) becomes 2:00 CET: 2:00–2:59 happens twice.
    const repeated: OfficeHours = { weekly: { sun: [["02:30", "03:30"]] } };
    expect(next(repeated, "Europe/Berlin", "2026-10-25T00:00:00Z")).toBe("2026-10-25T00:30:00.000Z");
    // 2:00 CET, the second time round: before the range again, which opens a second time at 2:30 CET.
    expect(isOpen(repeated, "Europe/Berlin", new Date("2026-10-25T01:00:00Z"))).toBe(false);
    expect(next(repeated, "Europe/Berlin", "2026-10-25T01:00:00Z")).toBe("2026-10-25T01:30:00.000Z");
    // A range ending at 2:30 closes at 2:30 CEST and reopens as the clock goes back to 2:00.
    const night: OfficeHours = { weekly: { sun: [["01:00", "02:30"]] } };
    expect(next(night, "Europe/Berlin", "2026-10-25T00:45:00Z")).toBe("2026-10-25T01:00:00.000Z");
    expect(next(night, "Europe/Berlin", "2026-10-25T01:30:00Z")).toBe("2026-11-01T00:00:00.000Z");
  });

  it("opens overnight ranges on the day they start, unless that day is a holiday", () => {
    const nights: OfficeHours = { weekly: { fri: [["22:00", "02:00"]] }, holidays: ["2026-12-11"] };
    // Thursday 3 December: Friday 22:00.
    expect(next(nights, "UTC", "2026-12-03T12:00:00Z")).toBe("2026-12-04T22:00:00.000Z");
    // Saturday 5 December 02:00, just closed: Friday 11 is a holiday, so Friday 18.
    expect(next(nights, "UTC", "2026-12-05T02:00:00Z")).toBe("2026-12-18T22:00:00.000Z");
    expect(next(nights, "UTC", "2026-12-11T23:00:00Z")).toBe("2026-12-18T22:00:00.000Z");
  });

  it("agrees with isOpen minute by minute, in zones with and without daylight saving", () => {
    // A few hours a day, some overnight, some days off: an opening within two days of any instant.
    const hours: OfficeHours = {
      weekly: {
        mon: [["08:00", "12:00"]],
        tue: [
          ["01:30", "02:45"],
          ["20:00", "03:15"],
        ],
        wed: [["02:15", "02:45"]],
        thu: [["09:00", "10:00"]],
        fri: [["23:00", "01:30"]],
        sat: [["01:45", "02:30"]],
        sun: [["02:00", "03:00"]],
      },
      holidays: ["2026-03-31", "2026-10-29"],
    };
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"];
    // Around the 2026 changes (Berlin and New York in March and autumn, Lord Howe in April and October).
    const starts = ["2026-03-06", "2026-03-27", "2026-04-03", "2026-10-02", "2026-10-23", "2026-10-30"];
    for (const tz of zones) {
      for (const day of starts) {
        const at = Date.parse(`${day}T00:00:00Z`) + Math.floor(random() * 4 * 86_400_000);
        const found = nextOpening(hours, tz, new Date(at));
        let expected: number | null = null;
        if (!isOpen(hours, tz, new Date(at))) {
          for (let t = Math.floor(at / 60_000 + 1) * 60_000; t < at + 3 * 86_400_000; t += 60_000) {
            if (isOpen(hours, tz, new Date(t))) {
              expected = t;
              break;
            }
          }
          expect(expected, `${tz} ${new Date(at).toISOString()}`).not.toBeNull();
        }
        expect(found?.getTime() ?? null, `${tz} ${new Date(at).toISOString()}`).toBe(expected);
      }
    }
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
