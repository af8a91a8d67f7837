import type { Prisma } from "../db/generated/client";
import { addDays, instantsOf, localOf } from "../apps/local-time";
import { isOpen, nextOpening, officeHoursSchema, type OfficeHours } from "../apps/office-hours";
import type { Schedule } from "./schemas";

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether a local minute is inside a window (one that ends before it starts runs past midnight). */
function inWindow(minute: number, w: { from: string; to: string }): boolean {
  const a = minutes(w.from);
  const b = minutes(w.to);
  return a < b ? minute >= a && minute < b : minute >= a || minute < b;
}

/** The window's next start after `at` (now when `at` is inside it). */
function windowFrom(w: { from: string; to: string }, timeZone: string, at: Date): Date {
  const local = localOf(at, timeZone);
  if (inWindow(local.minute, w)) return at;
  for (let d = 0; d <= 2; d++) {
    const first = instantsOf(addDays(local.date, d), minutes(w.from), timeZone)[0];
    if (first !== undefined && first > at.getTime()) return new Date(first);
  }
  // A start skipped by a daylight-saving gap two days running does not happen; an hour later is safe.
  return new Date(at.getTime() + 3600_000);
}

/** Sends that no schedule lets out within this long are looked at again then (the schedule may change). */
const HORIZON_MS = 7 * 86_400_000;

/**
 * When a send due at `now` may go out under its message's schedule: `now`, or the first instant after it that is
 * both within the app's office hours (when the schedule asks for them) and within its window.
 */
export function nextSendTime(
  schedule: Schedule | null,
  app: { timeZone: string; officeHours: Prisma.JsonValue },
  now: Date,
): Date {
  if (!schedule || (!schedule.office_hours && !schedule.window)) return now;
  const parsed = officeHoursSchema.safeParse(app.officeHours);
  const hours: OfficeHours | null =
    schedule.office_hours && app.officeHours !== null && parsed.success ? parsed.data : null;
  let t = now;
  // Each step moves to the next opening of one of the two; both agree within a few steps.
  for (let i = 0; i < 20; i++) {
    if (hours && !isOpen(hours, app.timeZone, t)) {
      const open = nextOpening(hours, app.timeZone, t);
      if (!open) return new Date(now.getTime() + HORIZON_MS);
      t = open;
    }
    if (schedule.window) {
      const w = windowFrom(schedule.window, app.timeZone, t);
      if (w.getTime() !== t.getTime()) {
        t = w;
        continue;
      }
    }
    if (!hours || isOpen(hours, app.timeZone, t)) return t;
  }
  return new Date(now.getTime() + HORIZON_MS);
}
