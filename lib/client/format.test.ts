import { describe, expect, it } from "vitest";
import {
  axisLabel,
  dateTimeInputValue,
  formatCount,
  formatDateTime,
  formatIsoDateTime,
  formatShortTime,
  isoDay,
  isoTime,
  plural,
} from "./format";

// 2025-03-03 (a Monday) 22:30:00 UTC: already the 4th in Tokyo (UTC+9), still the 3rd in New York (UTC-5).
const AT = Date.UTC(2025, 2, 3, 22, 30) / 1000;
const GB_UTC = { locale: "en-GB", timeZone: "UTC" };
const GB_TOKYO = { locale: "en-GB", timeZone: "Asia/Tokyo" };
const HOUR = 3600;
const DAY = 86_400;

describe("formatDateTime", () => {
  it("writes the locale's medium date and short time in the zone", () => {
    expect(formatDateTime(AT, GB_UTC)).toBe("3 Mar 2025, 22:30");
    expect(formatDateTime(AT, GB_TOKYO)).toBe("4 Mar 2025, 07:30");
    expect(formatDateTime(AT, { locale: "de-DE", timeZone: "UTC" })).toBe("03.03.2025, 22:30");
  });
});

describe("formatIsoDateTime", () => {
  it("reads an ISO date-time without an offset as UTC", () => {
    expect(formatIsoDateTime("2025-03-03T22:30:00", GB_UTC)).toBe("3 Mar 2025, 22:30");
    expect(formatIsoDateTime("2025-03-03T22:30:00", GB_TOKYO)).toBe("4 Mar 2025, 07:30");
  });

  it("gives back what it cannot read", () => {
    expect(formatIsoDateTime("2025-13-45T99:00:00", GB_UTC)).toBe("2025-13-45T99:00:00");
  });
});

describe("formatShortTime", () => {
  const now = (AT + HOUR) * 1000;

  it("is the time of day on the same day in the zone", () => {
    expect(formatShortTime(AT, now, GB_UTC)).toBe("22:30");
    expect(formatShortTime(AT - 22 * HOUR, now, GB_UTC)).toBe("00:30");
  });

  it("takes 'today' from the zone, not from UTC", () => {
    // 23:30 UTC is 08:30 on the 4th in Tokyo: a message of 13:30 UTC (22:30 on the 3rd there) was yesterday.
    expect(formatShortTime(AT - 9 * HOUR, now, GB_TOKYO)).toBe("Mon");
    expect(formatShortTime(AT - 9 * HOUR, now, GB_UTC)).toBe("13:30");
  });

  it("is the weekday within six days, the day and month before", () => {
    expect(formatShortTime(AT - DAY, now, GB_UTC)).toBe("Sun");
    expect(formatShortTime(AT - 5 * DAY, now, GB_UTC)).toBe("Wed");
    expect(formatShortTime(AT - 6 * DAY, now, GB_UTC)).toBe("25 Feb");
    expect(formatShortTime(AT - 400 * DAY, now, GB_UTC)).toBe("28 Jan");
  });
});

describe("isoTime", () => {
  it("is UTC ISO 8601, fractions of a second kept", () => {
    expect(isoTime(AT)).toBe("2025-03-03T22:30:00.000Z");
    expect(isoTime(AT + 0.25)).toBe("2025-03-03T22:30:00.250Z");
  });
});

describe("isoDay", () => {
  it("is the calendar day in the zone", () => {
    const at = new Date(AT * 1000);
    expect(isoDay(at, "UTC")).toBe("2025-03-03");
    expect(isoDay(at, "Asia/Tokyo")).toBe("2025-03-04");
    expect(isoDay(at, "America/New_York")).toBe("2025-03-03");
  });
});

describe("dateTimeInputValue", () => {
  it("is the wall-clock time in the zone, on a 24-hour clock", () => {
    expect(dateTimeInputValue(AT, "UTC")).toBe("2025-03-03T22:30");
    expect(dateTimeInputValue(AT, "Asia/Tokyo")).toBe("2025-03-04T07:30");
    expect(dateTimeInputValue(Date.UTC(2025, 2, 4, 0, 5) / 1000, "UTC")).toBe("2025-03-04T00:05");
  });
});

describe("formatCount", () => {
  it("groups digits as the locale does", () => {
    expect(formatCount(1234567, { locale: "en-US" })).toBe("1,234,567");
    expect(formatCount(1234567, { locale: "de-DE" })).toBe("1.234.567");
    expect(formatCount(7, { locale: "en-US" })).toBe("7");
  });
});

describe("plural", () => {
  it("keeps the noun singular for one only", () => {
    expect(`1 ${plural(1, "rating")}`).toBe("1 rating");
    expect(`0 ${plural(0, "rating")}`).toBe("0 ratings");
    expect(`2 ${plural(2, "request")}`).toBe("2 requests");
  });
});

describe("axisLabel", () => {
  it("shortens days only, and cuts long names to a band's width", () => {
    expect(axisLabel("2026-12-03")).toBe("12-03");
    // Ten characters like a day, but a channel's name: whole.
    expect(axisLabel("Webchannel")).toBe("Webchannel");
    expect(axisLabel("a very long tag name")).toBe("a very long ta");
  });
});
