import { z } from "zod";

/**
 * An app's office hours: per weekday, ranges of local time in the app's time zone, and holidays (local dates, closed
 * all day). A range may run past midnight ("22:00"–"02:00"): its second half belongs to the day it started, so a
 * holiday on that day closes it too. No office hours at all: always open. Browser-safe (zod only).
 */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

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

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

interface Local {
  date: string;
  weekday: Weekday;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The local date, weekday and minute of the day of an instant in a zone. */
function localOf(at: Date, timeZone: string): Local {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    formats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    weekday: String(p.weekday).toLowerCase().slice(0, 3) as Weekday,
    minute: Number(p.hour) * 60 + Number(p.minute),
  };
}

const previous = (d: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(d) + 6) % 7]!;

/** The local date before a YYYY-MM-DD date (calendar arithmetic, no zone involved). */
function dayBefore(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

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
  const yesterday = holidays.has(dayBefore(now.date)) ? [] : (hours.weekly[previous(now.weekday)] ?? []);
  return yesterday.some(([from, to]) => minutes(to) < minutes(from) && now.minute < minutes(to));
}
