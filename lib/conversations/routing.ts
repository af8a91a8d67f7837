import type { Queryable } from "../db/sql";

/**
 * Round-robin routing of a visitor's new conversation, inside its transaction: the Available operator of the app
 * (of the channel's routing operators, when its channel has any) with the fewest open assigned conversations in
 * the app, under the app's cap, ties to the one assigned longest ago; null when routing is off, nobody is
 * Available or everyone is at the cap.
 *
 * The app row is locked (FOR NO KEY UPDATE: it waits for other routed starts of the app, not for the foreign-key
 * checks of inserts, which would deadlock) until the commit, so two concurrent starts count each other's
 * assignment and never both exceed the cap.
 */
export async function routeConversation(
  tx: Queryable,
  appId: bigint,
  channelId: bigint | null,
): Promise<bigint | null> {
  const [app] = await tx.$queryRaw<{ routing: string }[]>`SELECT routing FROM apps WHERE id = ${appId}`;
  if (app?.routing !== "round_robin") return null;
  const [locked] = await tx.$queryRaw<{ routing: string; routing_cap: number | null }[]>`
    SELECT routing, routing_cap FROM apps WHERE id = ${appId} FOR NO KEY UPDATE`;
  if (locked?.routing !== "round_robin") return null;
  const [pick] = await tx.$queryRaw<{ admin_id: bigint }[]>`
    SELECT m.admin_id
    FROM app_admins m
    LEFT JOIN LATERAL (
      SELECT count(*)::int AS open FROM conversations c
      WHERE c.app_id = m.app_id AND c.assignee_id = m.admin_id AND NOT c.closed
    ) o ON true
    WHERE m.app_id = ${appId} AND m.availability = 'available'
      AND (NOT EXISTS (SELECT 1 FROM channel_routing_operators r WHERE r.channel_id = ${channelId}::bigint)
        OR EXISTS (SELECT 1 FROM channel_routing_operators r
          WHERE r.channel_id = ${channelId}::bigint AND r.admin_id = m.admin_id))
      AND (${locked.routing_cap}::int IS NULL OR o.open < ${locked.routing_cap}::int)
    ORDER BY o.open ASC, m.last_assigned_at ASC NULLS FIRST, m.admin_id ASC
    LIMIT 1`;
  if (!pick) return null;
  await tx.$executeRaw`
    UPDATE app_admins SET last_assigned_at = clock_timestamp()
    WHERE app_id = ${appId} AND admin_id = ${pick.admin_id}`;
  return pick.admin_id;
}
