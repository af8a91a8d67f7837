import { assertApp, type Ctx } from "../auth/context";
import { lookupFailed } from "../domain/errors";
import type { Serialized } from "../contract/schemas";
import type { CsatSettings } from "./schemas";

/** Whether the app asks its visitors to rate conversations an operator closes (off until turned on). */
export async function getCsatSettings(ctx: Ctx, input: { appId: bigint }): Promise<Serialized<CsatSettings>> {
  assertApp(ctx, input.appId);
  const app = await ctx.db.app.findUnique({ where: { id: input.appId }, select: { csatEnabled: true } });
  if (!app) throw lookupFailed(`App ${input.appId} does not exist.`);
  return { app: input.appId, enabled: app.csatEnabled };
}

/** Turns asking on or off; conversations already asked keep their request and can still be rated. */
export async function updateCsatSettings(
  ctx: Ctx,
  input: { appId: bigint; enabled?: boolean },
): Promise<Serialized<CsatSettings>> {
  assertApp(ctx, input.appId);
  const app = await ctx.db.app.update({
    where: { id: input.appId },
    data: input.enabled === undefined ? {} : { csatEnabled: input.enabled },
    select: { csatEnabled: true },
  });
  return { app: input.appId, enabled: app.csatEnabled };
}
