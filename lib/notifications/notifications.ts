import { denied } from "../domain/errors";
import type { Ctx } from "../auth/context";
import type { NotificationRow } from "./serialize";

/** Notifications are an operator's own: tokens (an app's, not a person's) have none. */
function operatorOf(ctx: Ctx): { adminId: bigint; appIds: bigint[] } {
  if (ctx.actor.kind !== "admin") throw denied("Notifications belong to operators: use the panel's session.");
  return ctx.actor;
}

export async function listNotifications(
  ctx: Ctx,
  input: { limit: number; unreadOnly: boolean },
): Promise<{ items: NotificationRow[]; unread: number }> {
  const me = operatorOf(ctx);
  // Only apps the operator still belongs to: removed from an app, its notifications go quiet.
  const items = await ctx.db.$queryRaw<NotificationRow[]>`
    SELECT n.id, n.app_id AS "appId", n.kind, n.conversation_id AS "conversationId", n.part_id AS "partId",
      n.actor_id AS "actorId", a.name AS "actorName", n.excerpt, n.created, n.read_at AS "readAt",
        n.count, n.bulk_job_id AS "bulkJobId"
    FROM notifications n LEFT JOIN admins a ON a.id = n.actor_id
    WHERE n.admin_id = ${me.adminId} AND n.app_id = ANY(${me.appIds}::bigint[])
      AND (${!input.unreadOnly}::boolean OR n.read_at IS NULL)
    ORDER BY n.id DESC LIMIT ${input.limit}`;
  return { items, unread: await unreadCount(ctx, me) };
}

async function unreadCount(ctx: Ctx, me: { adminId: bigint; appIds: bigint[] }): Promise<number> {
  const [row] = await ctx.db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM notifications
    WHERE admin_id = ${me.adminId} AND app_id = ANY(${me.appIds}::bigint[]) AND read_at IS NULL`;
  return Number(row?.n ?? 0);
}

/** Marks the given notifications (or all) read; IDs of others' notifications are ignored, not refused. */
export async function markNotificationsRead(
  ctx: Ctx,
  input: { ids: bigint[] } | { all: true },
): Promise<{ read: number; unread: number }> {
  const me = operatorOf(ctx);
  const ids = "all" in input ? null : input.ids;
  const read = await ctx.db.$executeRaw`
    UPDATE notifications SET read_at = now()
    WHERE admin_id = ${me.adminId} AND read_at IS NULL AND (${ids === null}::boolean OR id = ANY(${ids ?? []}::bigint[]))`;
  return { read, unread: await unreadCount(ctx, me) };
}
