const DAY_MS = 86_400_000;

/** Where the visitor is: their locale and time zone (both the browser's when not given). */
export interface Where {
  locale?: string;
  timeZone?: string;
}

/** The calendar day of an instant in the zone, counted from 1970-01-01: two of them subtract to a day count. */
function dayNumber(at: Date, timeZone: string | undefined): number {
  const f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" });
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day)) / DAY_MS;
}

/**
 * The header's line while the team is away outside its office hours: "We're away. Back Monday at 09:00", in the
 * visitor's locale and time zone. Today and tomorrow by name; a weekday within the week; further on, the date.
 */
export function awayLine(opensAt: Date, now = new Date(), where: Where = {}): string {
  const { locale, timeZone } = where;
  const days = dayNumber(opensAt, timeZone) - dayNumber(now, timeZone);
  const time = opensAt.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", timeZone });
  const day =
    days <= 0
      ? "today"
      : days === 1
        ? "tomorrow"
        : days < 7
          ? opensAt.toLocaleDateString(locale, { weekday: "long", timeZone })
          : opensAt.toLocaleDateString(locale, { weekday: "long", day: "numeric", month: "long", timeZone });
  return `We're away. Back ${day} at ${time}`;
}
