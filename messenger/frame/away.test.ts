import { describe, expect, test } from "vitest";
import { awayLine } from "./away";

describe("awayLine", () => {
  const berlin = { locale: "en-GB", timeZone: "Europe/Berlin" };
  // Friday 4 December 2026, 18:00 in Berlin.
  const now = new Date("2026-12-04T17:00:00Z");

  test("names the day as the visitor counts it: today, tomorrow, a weekday, then a date", () => {
    expect(awayLine(new Date("2026-12-04T19:30:00Z"), now, berlin)).toBe("We're away. Back today at 20:30");
    expect(awayLine(new Date("2026-12-05T08:00:00Z"), now, berlin)).toBe(
      "We're away. Back tomorrow at 09:00",
    );
    expect(awayLine(new Date("2026-12-07T08:00:00Z"), now, berlin)).toBe("We're away. Back Monday at 09:00");
    expect(awayLine(new Date("2026-12-14T08:00:00Z"), now, berlin)).toBe(
      "We're away. Back Monday 14 December at 09:00",
    );
  });

  test("reads the instant in the visitor's zone and locale, not the app's", () => {
    const opensAt = new Date("2026-12-07T08:00:00Z");
    // 3:00 on Monday in New York, and in an American locale.
    // (Some ICU versions put a narrow no-break space before AM.)
    const us = awayLine(opensAt, now, { locale: "en-US", timeZone: "America/New_York" });
    expect(us.replace(/\s/g, " ")).toBe("We're away. Back Monday at 03:00 AM");
    // 13:30 in Kolkata; a German weekday.
    expect(awayLine(opensAt, now, { locale: "de-DE", timeZone: "Asia/Kolkata" })).toBe(
      "We're away. Back Montag at 13:30",
    );
    // Friday 18:00 in Berlin is Saturday 2:00 in Tokyo: Saturday 9:00 in Berlin is 17:00 there, today.
    expect(awayLine(new Date("2026-12-05T08:00:00Z"), now, { locale: "en-GB", timeZone: "Asia/Tokyo" })).toBe(
      "We're away. Back today at 17:00",
    );
  });
});
