import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";

/**
 * Routing of a visitor's new conversation, inside its transaction, among the Available operators of the app (of
 * the channel's routing operators, when its channel has any) under the app's cap; null when routing is off,
 * nobody is Available or everyone is at the cap.
 * - `round_robin`: strict turns. The candidates in operator-ID order; the first after the pointer (who got the
 *   previous conversation routed among the same operators: the channel's pointer when it names operators, else
 *   the app's), wrapping around. Someone Away or at the cap is passed over and keeps their place in the order.
 * - `balanced`: the one with the fewest open assigned conversations in the app, ties to the one assigned longest ago.
 *
 * The app row is locked (FOR NO KEY UPDATE: it waits for other routed starts of the app, not for the foreign-key
 * checks of inserts, which would deadlock) until the commit, so two concurrent starts see each other's assignment
 * and pointer: they never take the same turn nor both exceed the cap, on any number of instances.
 */
export async function routeConversation(
  tx: Queryable,
  appId: bigint,
  channelId: bigint | null,
): Promise<bigint | null> {
  const [app] = await tx.$queryRaw<{ routing: string }[]>`SELECT routing FROM apps WHERE id = ${appId}`;
  if (!isRouted(app?.routing)) return null;
  const [locked] = await tx.$queryRaw<
    { routing: string; routing_cap: number | null; routing_last_admin_id: bigint | null }[]
  >`
    SELECT routing, routing_cap, routing_last_admin_id FROM apps WHERE id = ${appId} FOR NO KEY UPDATE`;
  if (!locked || !isRouted(locked.routing)) return null;
  const cap = locked.routing_cap;
  // Behind the app's lock every routed start of the app reads the pointer its predecessor committed.
  const order =
    locked.routing === "balanced"
      ? Prisma.sql`o.open ASC, m.last_assigned_at ASC NULLS FIRST, m.admin_id ASC`
      : Prisma.sql`m.admin_id <= COALESCE(CASE WHEN s.restricted THEN s.channel_last ELSE
          ${locked.routing_last_admin_id}::bigint END, 0), m.admin_id ASC`;
  // Open conversations are counted only where they matter: balanced's order, or a cap.
  const counted = locked.routing === "balanced" || cap !== null;
  const [pick] = await tx.$queryRaw<{ admin_id: bigint; restricted: boolean }[]>`
    WITH s AS (
      SELECT EXISTS (SELECT 1 FROM channel_routing_operators r WHERE r.channel_id = ${channelId}::bigint)
          AS restricted,
        (SELECT routing_last_admin_id FROM channels WHERE id = ${channelId}::bigint) AS channel_last
    )
    SELECT m.admin_id, s.restricted
    FROM app_admins m CROSS JOIN s
    LEFT JOIN LATERAL (
      SELECT count(*)::int AS open FROM conversations c
      WHERE ${counted} AND c.app_id = m.app_id AND c.assignee_id = m.admin_id AND NOT c.closed
    ) o ON true
    WHERE m.app_id = ${appId} AND m.availability = 'available'
      AND (NOT s.restricted OR EXISTS (SELECT 1 FROM channel_routing_operators r
          WHERE r.channel_id = ${channelId}::bigint AND r.admin_id = m.admin_id))
      AND (${cap}::int IS NULL OR o.open < ${cap}::int)
    ORDER BY ${order}
    LIMIT 1`;
  if (!pick) return null;
  // One statement moves both: balanced's tie-break and round robin's pointer (of the list the turn came from).
  await tx.$executeRaw`
    WITH member AS (
      UPDATE app_admins SET last_assigned_at = clock_timestamp()
      WHERE app_id = ${appId} AND admin_id = ${pick.admin_id}
    ), app AS (
      UPDATE apps SET routing_last_admin_id = ${pick.admin_id} WHERE id = ${appId} AND NOT ${pick.restricted}
    )
    UPDATE channels SET routing_last_admin_id = ${pick.admin_id}
    WHERE id = ${channelId}::bigint AND ${pick.restricted}`;
  return pick.admin_id;
}

function isRouted(mode: string | undefined): boolean {
  return mode === "round_robin" || mode === "balanced";
}
