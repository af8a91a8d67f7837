import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";

export interface ChannelRow {
  id: bigint;
  name: string;
  type: string;
  avatar: string;
  droppable: boolean;
  readPermission: unknown;
  notAssignedCount: number;
  notReadCount: number;
}

/** Channels with their Inbox counters (open conversations that have a user reply), in one query. */
export async function listChannels(ctx: Ctx, input: { appId: bigint }): Promise<ChannelRow[]> {
  assertApp(ctx, input.appId);
  const rows = await sqlOf(ctx.db).$queryRaw<
    {
      id: bigint;
      name: string;
      type: string;
      avatar: string;
      droppable: boolean;
      read_permission: unknown;
      not_assigned: number;
      not_read: number;
    }[]
  >`
    SELECT ch.id, ch.name, ch.type, ch.avatar, ch.droppable, ch.read_permission,
      COALESCE(SUM(CASE WHEN c.assignee_id IS NULL THEN 1 ELSE 0 END), 0)::int AS not_assigned,
      COALESCE(SUM(CASE WHEN c.read = false THEN 1 ELSE 0 END), 0)::int AS not_read
    FROM channels ch
    LEFT JOIN conversations c ON c.channel_id = ch.id AND c.app_id = ch.app_id AND c.closed = false
      AND c.has_user_replies = true AND c.assistant_type IS NULL
    WHERE ch.app_id = ${input.appId}
    GROUP BY ch.id
    ORDER BY ch.id`;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.type,
    avatar: r.avatar,
    droppable: r.droppable,
    readPermission: r.read_permission,
    notAssignedCount: r.not_assigned,
    notReadCount: r.not_read,
  }));
}

export function serializeChannel(c: ChannelRow) {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    avatar: c.avatar,
    droppable: c.droppable,
    not_assigned_count: c.notAssignedCount,
    not_read_count: c.notReadCount,
    read_permission: c.readPermission ?? null,
  };
}
