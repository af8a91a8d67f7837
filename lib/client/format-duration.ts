/**
 * The Reports' durations (seconds, as the API gives them) in the unit that reads: "20 s", "2 min 10 s",
 * "3 h 5 min", "2 d 4 h". Two units at most, because a first response of "1 h 2 min 3 s" says no more than
 * "1 h 2 min" and is harder to compare at a glance. Every card, axis, tooltip and table of a duration uses this.
 */

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** One duration for text: whole seconds under a minute, minutes and seconds under an hour, and so on up. */
export function formatDuration(seconds: number): string {
  // Rounded to the smallest unit shown first, so that 59.6 s reads "1 min" rather than "60 s".
  const s = Math.max(0, Math.round(seconds));
  if (s < MINUTE) return `${s} s`;
  if (s < HOUR) return pair(Math.floor(s / MINUTE), "min", s % MINUTE, "s");
  const m = Math.round(s / MINUTE);
  if (m < 24 * 60) return pair(Math.floor(m / 60), "h", m % 60, "min");
  const h = Math.round(s / HOUR);
  return pair(Math.floor(h / 24), "d", h % 24, "h");
}

const pair = (a: number, au: string, b: number, bu: string) => (b ? `${a} ${au} ${b} ${bu}` : `${a} ${au}`);

/** A table cell: nothing when the day has no sample. */
export const durationCell = (seconds: number | null): string =>
  seconds === null ? "" : formatDuration(seconds);

/** The unit of a chart's value axis, chosen by its largest value so that its ticks are round numbers of it. */
export interface DurationAxis {
  /** Seconds in one unit of the axis. */
  per: number;
  /** The axis title. */
  label: "Seconds" | "Minutes" | "Hours" | "Days";
}

/** Below two of a unit, the next smaller one: an axis of 0–1.5 hours reads better as 0–90 minutes. */
export function durationAxis(maxSeconds: number): DurationAxis {
  if (maxSeconds < 2 * MINUTE) return { per: 1, label: "Seconds" };
  if (maxSeconds < 2 * HOUR) return { per: MINUTE, label: "Minutes" };
  if (maxSeconds < 2 * DAY) return { per: HOUR, label: "Hours" };
  return { per: DAY, label: "Days" };
}
