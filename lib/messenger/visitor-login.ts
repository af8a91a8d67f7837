import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import type { Tx } from "../db/client";
import { denied } from "../domain/errors";
import { withEvents } from "../eventlog/append";
import { eventOf } from "../contract/socket";
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

/** An unverified claim: the user ID a page passed without its hash, kept on the visitor as a label only. */
export interface UserIdClaim {
  type: "messenger";
  verified: false;
  claimed: string;
  at: string;
}

const sourcesOf = (u: { propsSources: unknown }): Record<string, unknown> => {
  const s = u.propsSources;
  return typeof s === "object" && s !== null && !Array.isArray(s)
    ? { ...(s as Record<string, unknown>) }
    : {};
};

/** The user ID the visitor claimed without proof, if it did. */
export function claimedUserId(user: { propsSources: unknown }): string | undefined {
  const claim = sourcesOf(user).$user_id as Partial<UserIdClaim> | undefined;
  return claim?.verified === false && typeof claim.claimed === "string" ? claim.claimed : undefined;
}

const lockRow = async (tx: Tx, id: bigint) =>
  (await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`SELECT id FROM users WHERE id = ${id} FOR UPDATE`))
    .length > 0;

const gone = () => denied("This visitor no longer exists: boot the messenger again.");
const loggedInAs = (as: string, wanted: string) =>
  denied(`This visitor is logged in as ${as}: log out before logging in as ${wanted}.`);

/**
 * A user ID without its hash (only where the app does not require verification) is a label on this visitor and
 * nothing more: it is not the visitor's user_id, so no lookup by user ID (the site's backend, an import, a verified
 * login) ever finds the visitor, and the visitor never reaches the user of that ID. Whether such a user exists is
 * not told either: the answer is the same.
 */
async function claimUserId(ctx: Ctx, visitorId: bigint, userId: string): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    if (!(await lockRow(tx, visitorId))) throw gone();
    const visitor = await tx.user.findUniqueOrThrow({ where: { id: visitorId } });
    if (visitor.userId !== null) {
      if (visitor.userId !== userId) throw loggedInAs(visitor.userId, userId);
      return;
    }
    const claimed = claimedUserId(visitor);
    if (claimed === userId) return;
    if (claimed !== undefined) throw loggedInAs(`${claimed} (unverified)`, userId);
    const sources = sourcesOf(visitor);
    const claim: UserIdClaim = {
      type: "messenger",
      verified: false,
      claimed: userId,
      at: isoNoOffset(new Date()),
    };
    sources.$user_id = claim;
    await tx.user.update({
      where: { id: visitorId },
      data: { propsSources: sources as Prisma.InputJsonValue },
    });
  });
}

/**
 * The visitor logs in as the site's user `userId`. With a valid hash (the site's server signed the ID with the
 * app's identity secret) it becomes that user: merged into it when the app knows the user, else the ID is set on
 * the visitor. Without one, and only where the app does not require verification, the ID is only claimed
 * (claimUserId): an unverified claim never becomes, reaches or merges with a user.
 */
export async function loginVisitor(ctx: Ctx, input: LoginInput): Promise<LoginResult> {
  const settings = await ctx.db.messengerSettings.findUniqueOrThrow({ where: { appId: input.appId } });
  const verified =
    input.userHash !== undefined && verifyUserHash(settings.identitySecret, input.userId, input.userHash);
  if (input.userHash !== undefined && !verified) throw denied("user_hash does not match user_id.");
  if (settings.identityRequired && !verified) {
    throw denied("This messenger verifies identities: pass the user_hash your server computes for user_id.");
  }
  if (!verified) {
    await claimUserId(ctx, input.visitorId, input.userId);
    const tokens = await issueTokenPair(ctx.db, {
      kind: "visitor",
      appId: input.appId,
      userId: input.visitorId,
    });
    return { userId: input.visitorId, merged: false, verified: false, tokens };
  }
  // Fetched before the transaction (it may make the signing key): the moved conversations' events link files.
  const urls = await attachmentUrls(ctx.db, publicBase());
  const done = await withEvents(ctx.db, async (tx, emit) => {
    // One login per user ID at a time in the app: two visitors proving one new ID, or two tabs merging at once.
    await tx.$executeRaw(Prisma.sql`
      SELECT pg_advisory_xact_lock(hashtextextended(${`messenger-login:${input.appId}:${input.userId}`}, 0))`);
    const present = await lockRow(tx, input.visitorId);
    const target = await tx.user.findFirst({ where: { appId: input.appId, userId: input.userId } });
    if (!present) {
      // A concurrent login of this visitor merged it already: the login is the target's all the same.
      if (!target) throw gone();
      return { userId: target.id, merged: false };
    }
    const visitor = await tx.user.findUniqueOrThrow({ where: { id: input.visitorId } });
    if (visitor.userId === input.userId) return { userId: visitor.id, merged: false };
    if (visitor.userId !== null) throw loggedInAs(visitor.userId, input.userId);
    // Proven here, the browser is the user's: its own history (anonymous, or under a label it claimed) goes
    // with it, and the label goes.
    if (!target) {
      const sources = sourcesOf(visitor);
      sources.$user_id = { type: "messenger", verified: true, at: isoNoOffset(new Date()) };
      await tx.user.update({
        where: { id: visitor.id },
        data: { userId: input.userId, propsSources: sources as Prisma.InputJsonValue },
      });
      await announceIfNewLead(tx, emit, { id: visitor.id, wasLead: visitor.isLead });
      emit(
        eventOf(
          "user_props_changed",
          { appId: input.appId, userId: visitor.id },
          { user: visitor.id, app: input.appId, props: { $user_id: input.userId } },
        ),
      );
      return { userId: visitor.id, merged: false };
    }
    await lockRow(tx, target.id);
    const into = await tx.user.findUniqueOrThrow({ where: { id: target.id } });
    // A label the visitor claimed stays behind: a merge carries only the sources of the props it moves.
    await mergeUsers(tx, emit, urls, visitor, into);
    return { userId: into.id, merged: true };
  });
  if (done.merged) {
    // Its refresh tokens went with its row; its access tokens and sockets end here and on every instance.
    await revokeRefreshTokens(ctx.db, { userId: input.visitorId });
    disconnectVisitor(input.visitorId);
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
