import type { Ctx } from "../auth/context";
import { withEvents } from "../eventlog/append";
import { attachmentUrls, publicBase } from "../attachments/sign";
import { markUserPartsRead } from "../parts/append";
import { lockOwnConversation, resolveAdmin, resolveUser, type AdminRef, type UserRef } from "./actors";
import { publishChange } from "./events";
import { eventOf } from "../contract/socket";

export interface ReadInput {
  conversationId: bigint;
  /** The visitor read the operators' messages; otherwise an operator read the visitor's. */
  fromUser?: UserRef;
  fromAdmin?: AdminRef;
}

/**
 * Marks what the other side wrote as read. An operator's read clears the conversation's `read` flag and unread
 * count (the Inbox's); a visitor's read marks the operators' replies read. Already read: nothing is written.
 */
export async function markConversationRead(ctx: Ctx, input: ReadInput): Promise<void> {
  const urls = await attachmentUrls(ctx.db, publicBase());
  await withEvents(ctx.db, async (tx, emit) => {
    const conv = await lockOwnConversation(ctx, tx, input.conversationId);
    if (input.fromUser !== undefined) {
      const userId = await resolveUser(tx, conv, input.fromUser);
      const n = await tx.$executeRaw`
        UPDATE conversation_parts SET read = true
        WHERE conversation_id = ${conv.id} AND direction = 'a2u' AND read = false`;
      if (n > 0) {
        emit(
          eventOf("conversation_read", conv, {
            conversation: conv.id,
            by: "user",
            user: userId,
            admin: null,
          }),
        );
      }
      return;
    }
    const adminId = await resolveAdmin(ctx, tx, conv, input.fromAdmin);
    if (conv.read && conv.unreadPartsCount === 0) return;
    await tx.$executeRaw`UPDATE conversations SET read = true, unread_parts_count = 0 WHERE id = ${conv.id}`;
    await markUserPartsRead(tx, conv.id);
    const after = { ...conv, read: true, unreadPartsCount: 0 };
    await publishChange(tx, emit, urls, after, []);
    emit(
      eventOf("conversation_read", conv, {
        conversation: conv.id,
        by: "admin",
        user: conv.userId,
        admin: adminId,
      }),
    );
  });
}
