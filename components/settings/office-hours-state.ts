import { WEEKDAYS, type OfficeHours, type Weekday } from "@/lib/apps/office-hours";

/**
 * The office-hours editor's state and its way to and from the API's `office_hours`. Every day keeps its ranges
 * while it is switched off (and the week while "Always open" is chosen), so switching back finds them again.
 */

export interface RangeRow {
  /** React's key: rows move when one before them is removed. */
  key: number;
  from: string;
  to: string;
}
export interface DayRow {
  open: boolean;
  ranges: RangeRow[];
}
export interface HolidayRow {
  key: number;
  date: string;
}
export interface HoursForm {
  always: boolean;
  days: Record<Weekday, DayRow>;
  holidays: HolidayRow[];
}

export const DAY_NAMES: Record<Weekday, string> = {
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
  sun: "Sunday",
};

/** The API's limits (officeHoursSchema): per day, and in all. */
export const MAX_RANGES = 6;
export const MAX_HOLIDAYS = 100;

const NEW_RANGE = { from: "09:00", to: "17:00" };
/** What "Set office hours" starts from when there were none: weekdays 9 to 5. */
const WORKWEEK: Weekday[] = ["mon", "tue", "wed", "thu", "fri"];

let lastKey = 0;
export const rowKey = () => ++lastKey;

export const newRange = (): RangeRow => ({ key: rowKey(), ...NEW_RANGE });

export function toForm(hours: OfficeHours | null): HoursForm {
  const days = Object.fromEntries(
    WEEKDAYS.map((d): [Weekday, DayRow] => {
      const ranges = hours ? (hours.weekly[d] ?? []) : [];
      return [
        d,
        {
          open: hours ? ranges.length > 0 : WORKWEEK.includes(d),
          ranges: ranges.length ? ranges.map(([from, to]) => ({ key: rowKey(), from, to })) : [newRange()],
        },
      ];
    }),
  ) as Record<Weekday, DayRow>;
  return {
    always: hours === null,
    days,
    holidays: (hours?.holidays ?? []).map((date) => ({ key: rowKey(), date })),
  };
}

/**
 * What is sent: null for "Always open"; else the open days' ranges and every holiday row, in the order shown, so
 * the API's error paths (`weekly.tue.1`, `holidays.0`) name the rows on screen. Empty inputs go as they are: the
 * API says what is wrong with them.
 */
export function toHours(form: HoursForm): OfficeHours | null {
  if (form.always) return null;
  const weekly: OfficeHours["weekly"] = {};
  for (const d of WEEKDAYS) {
    const day = form.days[d];
    if (day.open) weekly[d] = day.ranges.map((r): [string, string] => [r.from, r.to]);
  }
  return { weekly, holidays: form.holidays.map((h) => h.date) };
}

/** The API's message about a range, a holiday or a day (`path` below `office_hours`), with its inputs at fault. */
export interface RowError {
  message: string;
  /** For a range: whether its start, its end (or the range as a whole, both) is at fault. */
  from: boolean;
  to: boolean;
}

/** The API's message about a holiday, a day or the list of holidays: its own key only. */
export function errorAt(fields: Record<string, string>, path: string): string | undefined {
  return fields[`office_hours.${path}`];
}

/** A range's two times are the tuple's items 0 and 1 in the API's paths. */
const PARTS = ["Start", "End"] as const;

/** The API's messages about a range (`weekly.tue.1`): the range's own, and its start's and end's. */
export function rangeErrorAt(fields: Record<string, string>, path: string): RowError | undefined {
  const own = errorAt(fields, path);
  const parts = PARTS.map((name, i) => {
    const m = errorAt(fields, `${path}.${i}`);
    return m === undefined ? undefined : `${name}: ${m}`;
  });
  const messages = [own, ...parts].filter((m): m is string => m !== undefined);
  if (!messages.length) return undefined;
  return {
    message: messages.join(" "),
    from: own !== undefined || parts[0] !== undefined,
    to: own !== undefined || parts[1] !== undefined,
  };
}
