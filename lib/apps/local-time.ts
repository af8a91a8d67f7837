/**
 * Wall-clock time in an IANA zone, for office hours (lib/apps/office-hours.ts): the local date, weekday and minute
 * of an instant, and back from a local date and minute to the instants that show it. Intl is the only zone
 * database; browser-safe.
 */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface Local {
  /** YYYY-MM-DD. */
  date: string;
  weekday: Weekday;
  /** Minutes since local midnight, 0 to 1439. */
  minute: number;
}

const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
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
  return f;
}

/** The local date, weekday and minute of the day of an instant in a zone. */
export function localOf(at: Date | number, timeZone: string): Local {
  const p = Object.fromEntries(
    formatOf(timeZone)
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    weekday: String(p.weekday).toLowerCase().slice(0, 3) as Weekday,
    minute: Number(p.hour) * 60 + Number(p.minute),
  };
}

/** A local date and minute read as if it were UTC: the zone's offset is what separates it from the instant. */
const wallMs = (date: string, minute: number) => Date.parse(`${date}T00:00:00Z`) + minute * MINUTE_MS;

/** The zone's offset from UTC at an instant, in ms (whole minutes: no zone in use today has seconds). */
function offsetAt(t: number, timeZone: string): number {
  const start = Math.floor(t / MINUTE_MS) * MINUTE_MS;
  const l = localOf(start, timeZone);
  return wallMs(l.date, l.minute) - start;
}

/** The date `n` days after a YYYY-MM-DD date (calendar arithmetic, no zone involved). */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instants whose local time in the zone is `date` at `minute`, earliest first: one on most days, none when a
 * daylight-saving gap skips that time, two when a change back repeats it. Assumes at most one offset change within
 * a day of it, which holds for every zone's rules.
 */
export function instantsOf(date: string, minute: number, timeZone: string): number[] {
  const wall = wallMs(date, minute);
  const offsets = new Set([-DAY_MS, 0, DAY_MS].map((d) => offsetAt(wall + d, timeZone)));
  const found = new Set<number>();
  for (const o of offsets) {
    const t = wall - o;
    const l = localOf(t, timeZone);
    if (l.date === date && l.minute === minute) found.add(t);
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The instants in [from, to] at which the zone's offset changes (daylight saving, a new standard time): the first
 * minute of the new offset. Probed every 12 hours, then narrowed to the minute.
 */
export function offsetChanges(from: number, to: number, timeZone: string): number[] {
  const step = DAY_MS / 2;
  const out: number[] = [];
  let t = from;
  let o = offsetAt(t, timeZone);
  while (t < to) {
    const next = Math.min(t + step, to);
    const p = offsetAt(next, timeZone);
    if (p !== o) {
      // The offset at lo is o's and at hi p's: halve until they are a minute apart.
      let lo = Math.floor(t / MINUTE_MS);
      let hi = Math.floor(next / MINUTE_MS);
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetAt(mid * MINUTE_MS, timeZone) === o) lo = mid;
        else hi = mid;
      }
      out.push(hi * MINUTE_MS);
    }
    t = next;
    o = p;
  }
  return out;
}
