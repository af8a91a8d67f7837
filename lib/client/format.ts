/**
 * How the panel writes dates, times and counts (durations: format-duration.ts): one place for each, so every page
 * reads alike.
 * Times are Unix seconds, as the API gives them. Every function takes the locale and the time zone as its last,
 * optional argument: left out, they are the browser's; tests pass them to pin the output.
 */
export interface Locale {
  locale?: string;
  timeZone?: string;
}

const DAY_MS = 86_400_000;

const toDate = (seconds: number) => new Date(seconds * 1000);

/** A date and time in the locale's medium date and short time ("Mar 3, 2025, 2:05 PM", "3 Mar 2025, 14:05"). */
export function formatDateTime(seconds: number, where: Locale = {}): string {
  return toDate(seconds).toLocaleString(where.locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: where.timeZone,
  });
}

/** A user date-time prop: ISO 8601 without an offset is UTC (the API's form); anything unreadable as it is. */
export function formatIsoDateTime(iso: string, where: Locale = {}): string {
  const ms = Date.parse(`${iso}Z`);
  return Number.isNaN(ms) ? iso : formatDateTime(ms / 1000, where);
}

/** For lists, where room is short: "14:05" today, the weekday ("Mon") within six days, else "3 Mar". */
export function formatShortTime(seconds: number, now = Date.now(), where: Locale = {}): string {
  const d = toDate(seconds);
  const { locale, timeZone } = where;
  if (isoDay(d, timeZone) === isoDay(new Date(now), timeZone))
    return d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", timeZone });
  if (now - d.getTime() < 6 * DAY_MS) return d.toLocaleDateString(locale, { weekday: "short", timeZone });
  return d.toLocaleDateString(locale, { day: "numeric", month: "short", timeZone });
}

/** The machine-readable form for `<time dateTime>`. */
export function isoTime(seconds: number): string {
  return toDate(seconds).toISOString();
}

function parts(d: Date, timeZone: string | undefined, time: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    ...(time ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : {}),
  });
  for (const p of f.formatToParts(d)) out[p.type] = p.value;
  return out;
}

/** The calendar day of a moment in a time zone, as YYYY-MM-DD (the Reports' day, the API's `from` and `to`). */
export function isoDay(at: Date, timeZone?: string): string {
  const p = parts(at, timeZone, false);
  return `${p.year}-${p.month}-${p.day}`;
}

/**
 * The value a `datetime-local` input takes (YYYY-MM-DDTHH:mm): wall-clock time in the zone, which is what the input
 * shows and what `new Date(value)` reads back (an ISO string would be UTC, hours off for most operators).
 */
export function dateTimeInputValue(seconds: number, timeZone?: string): string {
  const p = parts(toDate(seconds), timeZone, true);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** A count with the locale's digit grouping ("12,345"). */
export function formatCount(n: number, where: Locale = {}): string {
  return n.toLocaleString(where.locale);
}

/** An English noun for a count: "1 rating", "2 ratings" (the panel's texts are English). */
export function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A chart's category under its axis: a day (YYYY-MM-DD) as month and day, anything else cut to fit a band. */
export function axisLabel(category: string): string {
  return DAY.test(category) ? category.slice(5) : category.slice(0, 14);
}
