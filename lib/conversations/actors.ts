import type { Ctx } from "../auth/context";
import { actingAdminId, assertApp } from "../auth/context";
import type { Queryable } from "../db/sql";
import { invalid, lookupFailed } from "../domain/errors";
import { lockConversation, type ConversationRow, type LockedConversation } from "./rows";

export type AdminRef = bigint | "default_admin";
export type UserRef = bigint | "default_user";

/** The conversation named in the path, locked for this transaction; absent is a LookupError, foreign a 403. */
export async function lockOwnConversation(
  ctx: Ctx,
  tx: Queryable,
  id: bigint,
  reservePartIds = 0,
): Promise<LockedConversation> {
  const conv = await lockConversation(tx, id, reservePartIds, actingAdminId(ctx) ?? null);
  if (!conv) throw lookupFailed(`Conversation ${id} does not exist.`);
  assertApp(ctx, conv.appId);
  return conv;
}

export async function requireMember(
  tx: Queryable,
  appId: bigint,
  adminId: bigint,
  field: string,
): Promise<bigint> {
  const [m] = await tx.$queryRaw<{ admin_id: bigint }[]>`
    SELECT admin_id FROM app_admins WHERE app_id = ${appId} AND admin_id = ${adminId}`;
  if (!m) throw lookupFailed(`No admin ${adminId} in this app (${field}).`);
  return adminId;
}

/**
 * The operator a write is made as: `from_admin` when given (an ID or `default_admin`), else the logged-in
 * operator, else, for API tokens, the app's default admin.
 */
export async function resolveAdmin(
  ctx: Ctx,
  tx: Queryable,
  app: { appId: bigint; defaultAdminId?: bigint | null },
  ref: AdminRef | undefined,
  field = "from_admin",
): Promise<bigint> {
  if (typeof ref === "bigint") return requireMember(tx, app.appId, ref, field);
  if (ref === undefined && ctx.actor.kind === "admin") return ctx.actor.adminId;
  const defaultAdminId =
    app.defaultAdminId !== undefined
      ? app.defaultAdminId
      : (
          await tx.$queryRaw<{ default_admin_id: bigint | null }[]>`
            SELECT default_admin_id FROM apps WHERE id = ${app.appId}`
        )[0]?.default_admin_id;
  if (!defaultAdminId) throw invalid({ [field]: "is required: this app has no default admin" });
  return defaultAdminId;
}

/** Only the conversation's own visitor speaks in it: `default_user` is that user, an ID must be the same one. */
export async function resolveUser(
  tx: Queryable,
  conv: ConversationRow,
  ref: UserRef,
  field = "from_user",
): Promise<bigint> {
  if (ref === "default_user" || ref === conv.userId) return conv.userId;
  const [other] = await tx.$queryRaw<{ app_id: bigint }[]>`SELECT app_id FROM users WHERE id = ${ref}`;
  if (!other || other.app_id !== conv.appId) throw lookupFailed(`No user ${ref} in this app (${field}).`);
  throw invalid({ [field]: "must be the conversation's user" });
}

/**
 * How the message arrived: by email, the admin panel (operator sessions), the messenger (visitors) or the API
 * (tokens).
 */
export function sentVia(ctx: Ctx): string {
  if (ctx.via) return ctx.via;
  if (ctx.actor.kind === "admin") return "web_admin";
  return ctx.actor.kind === "visitor" ? "web_user" : "api";
}
