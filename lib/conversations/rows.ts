import { Prisma } from "../db/generated/client";
import type { Tx } from "../db/client";
import type { ConversationState } from "../parts/state";

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

export async function selectConversations(db: Tx, ids: bigint[]): Promise<ConversationRow[]> {
  if (!ids.length) return [];
  const rows = await db.$queryRaw<RawConversation[]>`
    SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.id IN (${Prisma.join(ids)})`;
  const byId = new Map(rows.map((r) => [r.id, mapConversation(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Takes the conversation's row lock for the rest of the transaction: every write goes through here first, so
 * concurrent writers to one conversation queue and each sees the counters the previous one committed.
 */
export async function lockConversation(tx: Tx, id: bigint): Promise<ConversationRow | undefined> {
  const rows = await tx.$queryRaw<RawConversation[]>`
    SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.id = ${id} FOR UPDATE`;
  return rows[0] && mapConversation(rows[0]);
}
