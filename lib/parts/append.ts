import type { Tx } from "../db/client";
import type { Upload } from "../attachments/store";
import { storeAttachment } from "../attachments/store";
import type { ConversationRow } from "../conversations/rows";
import { applyPart, directionOf, initiallyRead, type PartType } from "./state";

export interface PartDraft {
  type: PartType;
  sentVia: string;
  body?: string;
  bodyJson?: object;
  fromAdminId?: bigint | null;
  fromUserId?: bigint | null;
  assigneeId?: bigint | null;
  delayedUntil?: Date;
  tags?: string[];
  externalId?: string;
  randomId?: number;
  referrer?: string;
  actions?: object[];
  metaData?: object;
  upload?: Upload;
}

/**
 * Appends parts to a conversation locked by this transaction (see lockConversation) and rewrites every field that
 * follows from them in the same transaction. Parts of one call form one group (`part_group` = the first part's
 * ID): the assignment made by a reply's auto_assign and the reply itself.
 */
export async function appendParts(
  tx: Tx,
  conv: ConversationRow,
  drafts: PartDraft[],
): Promise<{ ids: bigint[]; conversation: ConversationRow }> {
  // IDs are taken under the lock, so within a conversation ID order is the order of commits.
  const seq = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT nextval(pg_get_serial_sequence('conversation_parts', 'id'))::bigint AS id
    FROM generate_series(1, ${drafts.length}::int)`;
  const ids = seq.map((r) => BigInt(r.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let state: ConversationRow = conv;
  drafts.forEach((d, i) => {
    state = { ...state, ...applyPart(state, { ...d, id: ids[i]!, fromAdminId: d.fromAdminId ?? null }) };
  });
  const s = state;
  // clock_timestamp, not now(): a writer that waited for the lock must not go back in time; +1µs keeps
  // last_update strictly increasing even within one clock tick.
  const updated = await tx.$queryRaw<{ last_update: Date; last_update_us: bigint }[]>`
    UPDATE conversations SET
      parts_count = ${s.partsCount}, unread_parts_count = ${s.unreadPartsCount}, read = ${s.read},
      replied = ${s.replied}, answered = ${s.answered}, has_user_replies = ${s.hasUserReplies},
      last_admin_id = ${s.lastAdminId}, assignee_id = ${s.assigneeId}, closed = ${s.closed},
      delayed_until = ${s.delayedUntil}, tags = ${s.tags}::text[], part_last_id = ${s.partLastId},
      important_part_last_id = ${s.importantPartLastId}, reply_last_id = ${s.replyLastId},
      last_update = GREATEST(clock_timestamp(), last_update + INTERVAL '1 microsecond')
    WHERE id = ${conv.id}
    RETURNING last_update, (EXTRACT(EPOCH FROM last_update) * 1000000)::bigint AS last_update_us`;
  const at = updated[0];
  if (!at) throw new Error(`conversation ${conv.id} vanished under its lock`);

  await tx.conversationPart.createMany({
    data: drafts.map((d, i) => ({
      id: ids[i]!,
      conversationId: conv.id,
      appId: conv.appId,
      created: at.last_update,
      body: d.body ?? "",
      bodyJson: d.bodyJson ?? {},
      read: initiallyRead(d.type),
      direction: directionOf(d.type),
      type: d.type,
      sentVia: d.sentVia,
      metaData: d.metaData ?? {},
      actions: d.actions && d.actions.length ? d.actions : undefined,
      externalId: d.externalId ?? null,
      partGroup: ids[0]!,
      randomId: d.randomId ?? 0,
      referrer: d.referrer ?? null,
      fromAdminId: d.fromAdminId ?? null,
      fromUserId: d.fromUserId ?? null,
      assigneeId: d.type === "assigned" ? (d.assigneeId ?? null) : null,
    })),
  });
  for (const [i, d] of drafts.entries()) {
    if (d.upload) await storeAttachment(tx, { appId: conv.appId, partId: ids[i]!, upload: d.upload });
  }
  if (conv.unreadPartsCount > 0 && s.unreadPartsCount === 0) await markUserPartsRead(tx, conv.id);
  await touchUser(tx, conv.userId, drafts, at.last_update);
  return { ids, conversation: { ...s, lastUpdateUs: BigInt(at.last_update_us) } };
}

export async function markUserPartsRead(tx: Tx, conversationId: bigint): Promise<void> {
  await tx.$executeRaw`
    UPDATE conversation_parts SET read = true
    WHERE conversation_id = ${conversationId} AND direction = 'u2a' AND read = false`;
}

/** `$last_reply` and `$last_contacted` follow the visitor's messages and the operators' replies. */
async function touchUser(tx: Tx, userId: bigint, drafts: PartDraft[], at: Date): Promise<void> {
  const replied = drafts.some((d) => d.type === "reply_user");
  const contacted = drafts.some((d) => d.type === "reply_admin" || d.type === "article");
  if (!replied && !contacted) return;
  await tx.user.update({
    where: { id: userId },
    data: { ...(replied ? { lastReply: at } : {}), ...(contacted ? { lastContacted: at } : {}) },
  });
}
