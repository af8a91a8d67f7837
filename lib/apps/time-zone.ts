import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { invalid, lookupFailed } from "../domain/errors";
import { isTimeZone } from "./schemas";

export async function getAppSettings(ctx: Ctx, input: { appId: bigint }) {
  assertApp(ctx, input.appId);
  const app = await ctx.db.app.findUnique({
    where: { id: input.appId },
    select: { id: true, name: true, timeZone: true },
  });
  if (!app) throw lookupFailed("No such app.");
  return app;
}

/** The zone is checked with Intl, the same database of zones the panel formats dates with. */
export async function updateAppSettings(ctx: Ctx, input: { appId: bigint; timeZone?: string }) {
  assertApp(ctx, input.appId);
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) {
    throw invalid({ time_zone: "not an IANA time zone (such as Europe/Paris)" });
  }
  return ctx.db.app.update({
    where: { id: input.appId },
    data: { timeZone: input.timeZone },
    select: { id: true, name: true, timeZone: true },
  });
}

export function serializeAppSettings(a: { id: bigint; name: string; timeZone: string }) {
  return { id: a.id, name: a.name, time_zone: a.timeZone };
}
