import { assertApp, type Ctx } from "../auth/context";
import { lookupFailed } from "../domain/errors";
import type { AppRouting } from "./schemas";

const select = { routing: true, routingCap: true } as const;

function serialize(a: { routing: string; routingCap: number | null }): AppRouting {
  return { routing: a.routing === "round_robin" ? "round_robin" : "off", routing_cap: a.routingCap };
}

export async function getRouting(ctx: Ctx, input: { appId: bigint }): Promise<AppRouting> {
  assertApp(ctx, input.appId);
  const app = await ctx.db.app.findUnique({ where: { id: input.appId }, select });
  if (!app) throw lookupFailed(`App ${input.appId} does not exist.`);
  return serialize(app);
}

/** Turns routing on or off and sets its cap (0: no cap); what is not given stays. */
export async function updateRouting(
  ctx: Ctx,
  input: { appId: bigint; routing?: AppRouting["routing"]; cap?: number },
): Promise<AppRouting> {
  assertApp(ctx, input.appId);
  const app = await ctx.db.app.update({
    where: { id: input.appId },
    data: {
      ...(input.routing !== undefined ? { routing: input.routing } : {}),
      ...(input.cap !== undefined ? { routingCap: input.cap === 0 ? null : input.cap } : {}),
    },
    select,
  });
  return serialize(app);
}
