import { WEEKDAYS, type OfficeHours, type Weekday } from "./office-hours";

/**
 * Office hours of one hour a week in UTC that start `inMs` from now (rounded down to the minute): the app is closed
 * now and opens at `opensAt`. For tests, whatever day and hour they run at.
 */
export function hoursOpeningIn(inMs: number, now = Date.now()) {
  const opensAt = new Date(Math.floor(now / 60_000) * 60_000 + inMs);
  const hhmm = (d: Date) => d.toISOString().slice(11, 16);
  const weekday: Weekday = WEEKDAYS[(opensAt.getUTCDay() + 6) % 7]!;
  const range: [string, string] = [hhmm(opensAt), hhmm(new Date(opensAt.getTime() + 3_600_000))];
  const hours: OfficeHours = { weekly: { [weekday]: [range] } };
  return { hours, opensAt, weekday, range };
}
