import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import type { Tx } from "../db/client";
import { denied } from "../domain/errors";
import { withEvents } from "../eventlog/append";
import { issueTokenPair, revokeFamily, revokeRefreshTokens, type TokenPair } from "../auth/refresh-tokens";
import { disconnectVisitor } from "../auth/disconnect";
import { announceIfNewLead } from "../users/lead-events";
import { isoNoOffset } from "../user-model/system-props";
import { verifyUserHash } from "./identity";
import { mergeUsers } from "./merge";
import { attachmentUrls, publicBase } from "../attachments/sign";

export interface LoginInput {
  appId: bigint;
  /** The visitor calling (its access token's user). */
  visitorId: bigint;
  /** The site's own ID of the user the visitor logs in as. */
  userId: string;
  userHash?: string;
}

export interface LoginResult {
  userId: bigint;
  /** Whether the visitor was merged into an existing user (and is gone). */
  merged: boolean;
  verified: boolean;
  tokens: TokenPair;
}

/** Whether the user's user_id was taken by a visitor without its hash. */
function unverifiedClaim(sources: unknown): boolean {
  const claim = (sources as Record<string, { verified?: unknown } | undefined> | null)?.$user_id;
  return claim?.verified === false;
}

async function markVerified(tx: Tx, user: { id: bigint; propsSources: unknown }): Promise<void> {
  const sources = { ...(user.propsSources as Record<string, unknown>) };
  sources.$user_id = { type: "messenger", verified: true, at: isoNoOffset(new Date()) };
  await tx.user.update({ where: { id: user.id }, data: { propsSources: sources as Prisma.InputJsonValue } });
}

const lockRow = async (tx: Tx, id: bigint) =>
  (await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`SELECT id FROM users WHERE id = ${id} FOR UPDATE`))
    .length > 0;

/**
 * The visitor logs in as the site's user `userId`. With a valid hash (the site's server signed the ID with the
 * app's identity secret) it becomes that user: merged into it when the app knows the user, else the ID is set on
 * the visitor. Without one, and only where the app does not require verification, the ID is set on an anonymous
 * visitor alone and recorded unverified: an unverified claim never reaches an existing user and its conversations.
 */
export async function loginVisitor(ctx: Ctx, input: LoginInput): Promise<LoginResult> {
  const settings = await ctx.db.messengerSettings.findUniqueOrThrow({ where: { appId: input.appId } });
  const verified =
    input.userHash !== undefined && verifyUserHash(settings.identitySecret, input.userId, input.userHash);
  if (input.userHash !== undefined && !verified) throw denied("user_hash does not match user_id.");
  if (settings.identityRequired && !verified) {
    throw denied("This messenger verifies identities: pass the user_hash your server computes for user_id.");
  }
  // Fetched before the transaction (it may make the signing key): the moved conversations' events link files.
  const urls = await attachmentUrls(ctx.db, publicBase());
  const done = await withEvents(ctx.db, async (tx, emit) => {
    // One login per user ID at a time in the app: two visitors claiming one new ID, or two tabs merging at once.
    await tx.$executeRaw(Prisma.sql`
      SELECT pg_advisory_xact_lock(hashtextextended(${`messenger-login:${input.appId}:${input.userId}`}, 0))`);
    const present = await lockRow(tx, input.visitorId);
    const target = await tx.user.findFirst({ where: { appId: input.appId, userId: input.userId } });
    if (!present) {
      // A concurrent login of this visitor merged it already: a verified login is the target's all the same.
      if (!target || !verified) throw denied("This visitor no longer exists: boot the messenger again.");
      return { userId: target.id, merged: false, evicted: false };
    }
    const visitor = await tx.user.findUniqueOrThrow({ where: { id: input.visitorId } });
    if (visitor.userId === input.userId) {
      if (verified && unverifiedClaim(visitor.propsSources)) await markVerified(tx, visitor);
      return { userId: visitor.id, merged: false, evicted: false };
    }
    if (visitor.userId !== null) {
      throw denied(
        `This visitor is logged in as another user: log out before logging in as ${input.userId}.`,
      );
    }
    if (!target) {
      const sources = { ...(visitor.propsSources as Record<string, unknown>) };
      sources.$user_id = { type: "messenger", verified, at: isoNoOffset(new Date()) };
      await tx.user.update({
        where: { id: visitor.id },
        data: { userId: input.userId, propsSources: sources as Prisma.InputJsonValue },
      });
      await announceIfNewLead(tx, emit, { id: visitor.id, wasLead: visitor.isLead });
      emit({
        appId: input.appId,
        channel: `user_props_changed.${input.appId}`,
        userId: visitor.id,
        type: "user_props_changed",
        payload: { user: visitor.id, app: input.appId, props: { $user_id: input.userId } },
      });
      return { userId: visitor.id, merged: false, evicted: false };
    }
    if (!verified) {
      throw denied("Logging in as a known user needs its user_hash, computed by your server.");
    }
    await lockRow(tx, target.id);
    let into = await tx.user.findUniqueOrThrow({ where: { id: target.id } });
    // The ID was claimed without proof (where the app allowed it): whoever claimed it loses it to the proven user.
    const evicted = unverifiedClaim(into.propsSources);
    if (evicted) {
      await tx.messengerDevice.deleteMany({ where: { userId: into.id } });
      await tx.refreshToken.updateMany({
        where: { userId: into.id, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      await markVerified(tx, into);
      into = await tx.user.findUniqueOrThrow({ where: { id: target.id } });
    }
    await mergeUsers(tx, emit, urls, visitor, into);
    return { userId: into.id, merged: true, evicted };
  });
  if (done.merged) {
    // Its refresh tokens went with its row; its access tokens and sockets end here and on every instance.
    await revokeRefreshTokens(ctx.db, { userId: input.visitorId });
    disconnectVisitor(input.visitorId);
  }
  if (done.evicted) {
    disconnectVisitor(done.userId);
    // Revocation holds for tokens issued up to its second: the new pair is issued in the next one.
    await new Promise((r) => setTimeout(r, 1001 - (Date.now() % 1000)));
  }
  const tokens = await issueTokenPair(ctx.db, { kind: "visitor", appId: input.appId, userId: done.userId });
  return { userId: done.userId, merged: done.merged, verified, tokens };
}

/**
 * The visitor leaves: its token family and its access tokens end, its sockets close and its devices are forgotten,
 * so that the browser's next boot (with a new device id) is a new anonymous visitor. Every device of the visitor:
 * a token does not say which browser holds it, and every token of the visitor is revoked anyway.
 */
export async function logoutVisitor(ctx: Ctx, input: { visitorId: bigint; family: string }): Promise<void> {
  await revokeFamily(ctx.db, input.family);
  await revokeRefreshTokens(ctx.db, { userId: input.visitorId });
  await ctx.db.messengerDevice.deleteMany({ where: { userId: input.visitorId } });
  disconnectVisitor(input.visitorId);
}
