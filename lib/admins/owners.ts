import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { denied } from "../domain/errors";
import type { Tx } from "../db/client";

/**
 * Operators are managed by the app's owners in the panel. Tokens may not: a token that could create a login
 * could mint API keys through it, which the API keys' own rule forbids (docs/decisions.md, Operators).
 */
export async function requireOwner(ctx: Ctx, tx: Tx, appId: bigint): Promise<bigint> {
  assertApp(ctx, appId);
  if (ctx.actor.kind !== "admin") throw denied("Operators are managed by the app's owners, in the panel.");
  const adminId = ctx.actor.adminId;
  const me = await tx.appAdmin.findUnique({
    where: { appId_adminId: { appId, adminId } },
    select: { role: true },
  });
  if (me?.role !== "owner") throw denied("Only the app's owners can add or remove operators.");
  return adminId;
}
