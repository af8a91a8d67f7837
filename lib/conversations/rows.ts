import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import type { ConversationState } from "../parts/state";
import type { UserSystemRow } from "../user-model/system-props";
import type { ActorView } from "../parts/load";

/**
 * A conversation as stored. Read through raw SQL because `last_update` is kept to the microsecond (the v2 position
 * is `[last_update, id]`) and a JavaScript Date holds milliseconds only.
 */
export interface ConversationRow extends ConversationState {
  id: bigint;
  appId: bigint;
  userId: bigint;
  channelId: bigint | null;
  created: Date;
  /** Microseconds since the epoch. */
  lastUpdateUs: bigint;
  clicked: boolean;
  unsubscribed: boolean;
  message: unknown;
  type: string;
  replyType: string;
  assistantType: string | null;
}

export interface RawConversation {
  id: bigint;
  app_id: bigint;
  user_id: bigint;
  channel_id: bigint | null;
  created: Date;
  last_update_us: bigint;
  read: boolean;
  replied: boolean;
  clicked: boolean;
  unsubscribed: boolean;
  closed: boolean;
  message: unknown;
  type: string;
  reply_type: string;
  parts_count: number;
  unread_parts_count: number;
  assignee_id: bigint | null;
  last_admin_id: bigint | null;
  delayed_until: Date | null;
  assistant_type: string | null;
  tags: string[];
  has_user_replies: boolean;
  answered: boolean;
  part_last_id: bigint | null;
  important_part_last_id: bigint | null;
  reply_last_id: bigint | null;
}

/** The select list for `conversations c`. */
export const CONVERSATION_COLUMNS = Prisma.sql`c.id, c.app_id, c.user_id, c.channel_id, c.created,
  (EXTRACT(EPOCH FROM c.last_update) * 1000000)::bigint AS last_update_us, c.read, c.replied, c.clicked,
  c.unsubscribed, c.closed, c.message, c.type, c.reply_type, c.parts_count, c.unread_parts_count, c.assignee_id,
  c.last_admin_id, c.delayed_until, c.assistant_type, c.tags, c.has_user_replies, c.answered, c.part_last_id,
  c.important_part_last_id, c.reply_last_id`;

export function mapConversation(r: RawConversation): ConversationRow {
  return {
    id: r.id,
    appId: r.app_id,
    userId: r.user_id,
    channelId: r.channel_id,
    created: r.created,
    lastUpdateUs: BigInt(r.last_update_us),
    read: r.read,
    replied: r.replied,
    clicked: r.clicked,
    unsubscribed: r.unsubscribed,
    closed: r.closed,
    message: r.message,
    type: r.type,
    replyType: r.reply_type,
    partsCount: r.parts_count,
    unreadPartsCount: r.unread_parts_count,
    assigneeId: r.assignee_id,
    lastAdminId: r.last_admin_id,
    delayedUntil: r.delayed_until,
    assistantType: r.assistant_type,
    tags: r.tags,
    hasUserReplies: r.has_user_replies,
    answered: r.answered,
    partLastId: r.part_last_id,
    importantPartLastId: r.important_part_last_id,
    replyLastId: r.reply_last_id,
  };
}

export async function selectConversations(db: Queryable, ids: bigint[]): Promise<ConversationRow[]> {
  if (!ids.length) return [];
  const rows = await db.$queryRaw<RawConversation[]>`
    SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.id IN (${Prisma.join(ids)})`;
  const byId = new Map(rows.map((r) => [r.id, mapConversation(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A conversation under this transaction's row lock, with what every write to it needs next. */
export interface LockedConversation extends ConversationRow {
  /** The app's default admin: the author of a token's writes that name no operator. */
  defaultAdminId: bigint | null;
  /** The app's assign_on_reply: an operator's reply to it while unassigned assigns it to them. */
  assignOnReply: boolean;
  /** Part IDs reserved under the lock, for appendParts. */
  partIds: bigint[];
  /** The visitor's system props as they were when the lock was taken (event payloads show them). */
  user: UserSystemRow;
  /** The operators a write usually names: assignee, last admin, the app's default admin and the acting one. */
  admins: Map<bigint, ActorView>;
}

interface RawLocked extends RawConversation {
  default_admin_id: bigint | null;
  assign_on_reply: boolean;
  part_ids: bigint[];
  admins: { id: string; name: string; avatar: string }[] | null;
  u_user_id: string | null;
  u_presence: string;
  u_last_heartbeat: Date | null;
  u_name: string | null;
  u_email: string | null;
  u_phone: string | null;
  u_avatar: string | null;
  u_initial_referrer: string | null;
  u_country: string | null;
  u_region: string | null;
  u_city: string | null;
  u_sessions: number;
  u_last_seen: Date | null;
  u_last_contacted: Date | null;
  u_last_reply: Date | null;
}

/**
 * Takes the conversation's row lock for the rest of the transaction: every write goes through here first, so
 * concurrent writers to one conversation queue and each sees the counters the previous one committed. `reserve`
 * part IDs are drawn once the lock is held (the outer select runs after the locking CTE), so within a
 * conversation ID order is commit order; one round trip does it all because this is every write's first step.
 */
export async function lockConversation(
  tx: Queryable,
  id: bigint,
  reserve = 0,
  actingAdminId: bigint | null = null,
): Promise<LockedConversation | undefined> {
  const rows = await tx.$queryRaw<RawLocked[]>`
    WITH c AS MATERIALIZED (
      SELECT ${CONVERSATION_COLUMNS}, a.default_admin_id, a.assign_on_reply, u.user_id AS u_user_id,
        u.presence AS u_presence, u.last_heartbeat AS u_last_heartbeat, u.name AS u_name, u.email AS u_email,
        u.phone AS u_phone, u.avatar AS u_avatar, u.initial_referrer AS u_initial_referrer, u.country AS u_country,
        u.region AS u_region, u.city AS u_city, u.sessions AS u_sessions, u.last_seen AS u_last_seen,
        u.last_contacted AS u_last_contacted, u.last_reply AS u_last_reply
      FROM conversations c JOIN apps a ON a.id = c.app_id JOIN users u ON u.id = c.user_id
      WHERE c.id = ${id} FOR UPDATE OF c
    )
    SELECT c.*, (
      SELECT json_agg(json_build_object('id', ad.id::text, 'name', ad.name, 'avatar', ad.avatar))
      FROM admins ad WHERE ad.id IN (c.assignee_id, c.last_admin_id, c.default_admin_id, ${actingAdminId}::bigint)
    ) AS admins, ARRAY(
      SELECT nextval(pg_get_serial_sequence('conversation_parts', 'id'))
      FROM generate_series(1, ${reserve}::int)
    ) AS part_ids
    FROM c`;
  const r = rows[0];
  if (!r) return undefined;
  return {
    ...mapConversation(r),
    defaultAdminId: r.default_admin_id,
    assignOnReply: r.assign_on_reply,
    partIds: r.part_ids.map((x) => BigInt(x)),
    admins: new Map(
      (r.admins ?? []).map((a) => [BigInt(a.id), { id: BigInt(a.id), name: a.name, avatar: a.avatar }]),
    ),
    user: {
      id: r.user_id,
      appId: r.app_id,
      userId: r.u_user_id,
      presence: r.u_presence,
      lastHeartbeat: r.u_last_heartbeat,
      name: r.u_name,
      email: r.u_email,
      phone: r.u_phone,
      avatar: r.u_avatar,
      initialReferrer: r.u_initial_referrer,
      country: r.u_country,
      region: r.u_region,
      city: r.u_city,
      sessions: r.u_sessions,
      lastSeen: r.u_last_seen,
      lastContacted: r.u_last_contacted,
      lastReply: r.u_last_reply,
    },
  };
}
