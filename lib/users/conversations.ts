import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import type { Keyset, KeysetPage } from "../domain/keyset";
import { pageConversations } from "../conversations/list";
import type { ConversationFields, ConversationView } from "../conversations/view";
import { findUserId, type UserRef } from "./resolve";

export const RECIPIENT_TYPES = ["web", "sdk"] as const;

export interface UserConversationsInput {
  user: UserRef;
  withUserRepliesOnly?: boolean;
  recipientType?: (typeof RECIPIENT_TYPES)[number];
  fields: ConversationFields;
  page: Keyset;
}

/**
 * A user's conversations, keyset-paged by `[last_update, id]` (the API's default: newest first) over the
 * (user_id, last_update, id) index. Rows and their serialisation are the conversations domain's own.
 */
export async function listUserConversations(
  ctx: Ctx,
  input: UserConversationsInput,
): Promise<KeysetPage<ConversationView>> {
  const user = await findUserId(ctx, input.user);
  const conds = [Prisma.sql`c.user_id = ${user.id}`];
  if (input.withUserRepliesOnly) conds.push(Prisma.sql`c.has_user_replies`);
  // Every conversation of this product reaches its visitor through the web widget; there are no SDK recipients.
  if (input.recipientType === "sdk") conds.push(Prisma.sql`FALSE`);
  return pageConversations(ctx, {
    appId: user.appId,
    where: Prisma.join(conds, " AND "),
    fields: input.fields,
    page: input.page,
  });
}
