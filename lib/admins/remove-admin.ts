import type { Ctx } from "../auth/context";
import { invalid, lookupFailed } from "../domain/errors";
import { withEvents } from "../eventlog/append";
import { revokeRefreshTokens } from "../auth/refresh-tokens";
import { assignConversationIn, linksFor } from "../conversations/change";
import { requireOwner } from "./owners";

export interface Removed {
  /** The conversations that were theirs and are now unassigned. */
  unassigned: number;
}

const refuse = (message: string) => invalid({ admin_id: message }, message);

/**
 * Removes an operator from the app, in one transaction with unassigning their conversations that are not closed
 * (each logged as any unassign is). Never the app's default admin (API tokens act as them), its last owner or its
 * last member. The admin themself stays: they may belong to other apps.
 */
export async function removeAdmin(ctx: Ctx, input: { appId: bigint; adminId: bigint }): Promise<Removed> {
  const { appId, adminId } = input;
  const urls = await linksFor(ctx);
  const removed = await withEvents(ctx.db, async (tx, emit) => {
    // Serialises removals in one app, so two of them cannot both pass the "not the last one" checks.
    const [app] = await tx.$queryRaw<{ defaultAdminId: bigint | null }[]>`
      SELECT default_admin_id AS "defaultAdminId" FROM apps WHERE id = ${appId} FOR UPDATE`;
    await requireOwner(ctx, tx, appId);
    const member = await tx.appAdmin.findUnique({
      where: { appId_adminId: { appId, adminId } },
      select: { role: true },
    });
    if (!app || !member) throw lookupFailed(`No operator ${adminId} in this app.`);
    if (app.defaultAdminId === adminId) {
      throw refuse(
        "This operator is the app's default admin (API tokens act as them) and cannot be removed.",
      );
    }
    const members = await tx.appAdmin.groupBy({ by: ["role"], where: { appId }, _count: { _all: true } });
    const total = members.reduce((n, m) => n + m._count._all, 0);
    const owners = members.find((m) => m.role === "owner")?._count._all ?? 0;
    if (total <= 1) throw refuse("This is the app's last operator and cannot be removed.");
    if (member.role === "owner" && owners <= 1)
      throw refuse("This is the app's last owner and cannot be removed.");

    await tx.appAdmin.delete({ where: { appId_adminId: { appId, adminId } } });
    const theirs = await tx.conversation.findMany({
      where: { appId, assigneeId: adminId, closed: false },
      select: { id: true },
      orderBy: { id: "asc" },
    });
    for (const c of theirs) {
      await assignConversationIn(ctx, { tx, emit, urls }, { conversationId: c.id, admin: null });
    }
    return { unassigned: theirs.length };
  });
  // Their API v3 tokens carry this app too: the refresh families end (they log in again), and the access tokens
  // stop on every instance with the sockets, which still carry this app in their actor: they reconnect and are
  // authorised afresh.
  await revokeRefreshTokens(ctx.db, { adminId });
  return removed;
}
