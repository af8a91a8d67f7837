import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { lookupFailed } from "../domain/errors";
import { Prisma } from "../db/generated/client";
import { isOpen, nextOpening, officeHoursSchema, type OfficeHours } from "./office-hours";

interface Row {
  id: bigint;
  timeZone: string;
  officeHours: Prisma.JsonValue;
}

const SELECT = { id: true, timeZone: true, officeHours: true } as const;

/** A stored value that no longer parses (written by hand) reads as none rather than failing every reader. */
const hoursOf = (row: Row): OfficeHours | null => {
  const parsed = officeHoursSchema.safeParse(row.officeHours);
  return row.officeHours !== null && parsed.success ? parsed.data : null;
};

export async function getOfficeHours(ctx: Ctx, input: { appId: bigint }) {
  assertApp(ctx, input.appId);
  const row = await ctx.db.app.findUnique({ where: { id: input.appId }, select: SELECT });
  if (!row) throw lookupFailed("No such app.");
  return { ...row, hours: hoursOf(row) };
}

/** Replaces the office hours whole; null: always open. They are read in the app's time zone. */
export async function setOfficeHours(ctx: Ctx, input: { appId: bigint; hours: OfficeHours | null }) {
  assertApp(ctx, input.appId);
  const row = await ctx.db.app.update({
    where: { id: input.appId },
    data: { officeHours: input.hours === null ? Prisma.DbNull : (input.hours as Prisma.InputJsonValue) },
    select: SELECT,
  });
  return { ...row, hours: hoursOf(row) };
}

export function serializeOfficeHours(r: Row & { hours: OfficeHours | null }, now = new Date()) {
  return {
    app: r.id,
    time_zone: r.timeZone,
    office_hours: r.hours,
    open_now: isOpen(r.hours, r.timeZone, now),
    opens_at: nextOpening(r.hours, r.timeZone, now)?.toISOString() ?? null,
  };
}
