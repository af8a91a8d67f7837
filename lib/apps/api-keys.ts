import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { lookupFailed, denied } from "../domain/errors";
import type { Scope } from "../auth/scopes";
import { issueApiKey, revokeApiKeyBy } from "../auth/tokens";

// Tokens mint no tokens: key management is for operators in the panel.
function adminOf(ctx: Ctx, appId: bigint): bigint {
  if (ctx.actor.kind !== "admin") throw denied("API keys are managed by operators.");
  assertApp(ctx, appId);
  return ctx.actor.adminId;
}

export async function listApiKeys(ctx: Ctx, input: { appId: bigint }) {
  adminOf(ctx, input.appId);
  return ctx.db.apiKey.findMany({
    where: { appId: input.appId },
    orderBy: { id: "desc" },
    select: {
      id: true,
      name: true,
      prefix: true,
      scopes: true,
      created: true,
      lastUsed: true,
      revokedAt: true,
    },
  });
}

export async function createApiKey(ctx: Ctx, input: { appId: bigint; name: string; scopes: Scope[] }) {
  const adminId = adminOf(ctx, input.appId);
  return issueApiKey(ctx.db, {
    appId: input.appId,
    name: input.name,
    scopes: input.scopes,
    createdById: adminId,
  });
}

export async function revokeApiKey(ctx: Ctx, input: { appId: bigint; keyId: bigint }) {
  adminOf(ctx, input.appId);
  const found = await ctx.db.apiKey.findFirst({ where: { id: input.keyId, appId: input.appId } });
  if (!found) throw lookupFailed(`No API key ${input.keyId} in this app.`);
  // Its open sockets were authorised by it: they end with it, on every instance, as a logout's do.
  await revokeApiKeyBy(ctx.db, { id: input.keyId, appId: input.appId });
}

type KeyRow = Awaited<ReturnType<typeof listApiKeys>>[number];

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function serializeApiKey(k: KeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    created: seconds(k.created),
    last_used: seconds(k.lastUsed),
    revoked: k.revokedAt !== null,
  };
}
