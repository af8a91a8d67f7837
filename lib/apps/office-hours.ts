import { z } from "zod";
import { addDays, DAY_MS, instantsOf, localOf, offsetChanges, WEEKDAYS, type Weekday } from "./local-time";

/**
 * An app's office hours: per weekday, ranges of local time in the app's time zone, and holidays (local dates, closed
 * all day). A range may run past midnight ("22:00"–"02:00"): its second half belongs to the day it started, so a
 * holiday on that day closes it too. No office hours at all: always open. Browser-safe (zod only).
 */
export { WEEKDAYS, type Weekday };

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = z.string().regex(TIME, { error: "must be a time HH:MM (00:00 to 23:59)" });
const range = z
  .tuple([time, time])
  .refine(([a, b]) => a !== b, { error: "must not start and end at the same time" });
const day = z.array(range).max(6, { error: "must have at most 6 ranges" });

export const officeHoursSchema = z.strictObject({
  weekly: z.strictObject(
    Object.fromEntries(WEEKDAYS.map((d) => [d, day.optional()])) as Record<
      Weekday,
      z.ZodOptional<typeof day>
    >,
  ),
  holidays: z
    .array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date YYYY-MM-DD" }))
    .max(100, { error: "must have at most 100 dates" })
    .optional(),
});
export type OfficeHours = z.infer<typeof officeHoursSchema>;

/** How far ahead nextOpening looks: an app closed for longer has no next opening to tell. */
export const OPENING_HORIZON_DAYS = 14;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const previous = (d: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(d) + 6) % 7]!;

/** The weekday of a YYYY-MM-DD date. */
const weekdayOf = (date: string): Weekday => WEEKDAYS[(new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7]!;

/** Whether the app is open at `at`: within a range of its local weekday, or the overnight end of yesterday's. */
export function isOpen(hours: OfficeHours | null, timeZone: string, at = new Date()): boolean {
  if (!hours) return true;
  const now = localOf(at, timeZone);
  const holidays = new Set(hours.holidays ?? []);
  const today = holidays.has(now.date) ? [] : (hours.weekly[now.weekday] ?? []);
  for (const [from, to] of today) {
    const a = minutes(from);
    const b = minutes(to);
    if (a < b ? now.minute >= a && now.minute < b : now.minute >= a) return true;
  }
  const yesterday = holidays.has(addDays(now.date, -1)) ? [] : (hours.weekly[previous(now.weekday)] ?? []);
  return yesterday.some(([from, to]) => minutes(to) < minutes(from) && now.minute < minutes(to));
}

/**
 * When the app next opens, if it is closed at `at`: null when it is open (or has no office hours), and when it does
 * not open within OPENING_HORIZON_DAYS. Openness only ever begins where a range starts (on a day that is not a
 * holiday) or where the zone's offset changes (a daylight-saving gap jumps into a range, a change back repeats a
 * range's hour): the answer is the earliest of those instants after `at` at which isOpen holds. A start skipped by a
 * gap opens at the gap's end when the range goes on past it.
 */
export function nextOpening(hours: OfficeHours | null, timeZone: string, at = new Date()): Date | null {
  if (!hours || isOpen(hours, timeZone, at)) return null;
  const from = at.getTime();
  const until = from + OPENING_HORIZON_DAYS * DAY_MS;
  const holidays = new Set(hours.holidays ?? []);
  const today = localOf(at, timeZone).date;
  const candidates = offsetChanges(from, until, timeZone);
  // One day more than the horizon: its last local date may be a day later than `at`'s date plus 14.
  for (let i = 0; i <= OPENING_HORIZON_DAYS + 1; i++) {
    const date = addDays(today, i);
    if (holidays.has(date)) continue;
    for (const [start] of hours.weekly[weekdayOf(date)] ?? [])
      candidates.push(...instantsOf(date, minutes(start), timeZone));
  }
  const first = candidates
    .filter((t) => t > from && t <= until)
    .sort((a, b) => a - b)
    .find((t) => isOpen(hours, timeZone, new Date(t)));
  return first === undefined ? null : new Date(first);
}
