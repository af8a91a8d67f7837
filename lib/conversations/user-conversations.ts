import type { z } from "zod";
import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import type { v1PageParams, v2PageParams } from "../api/pagination";
import { pageConversations } from "./list";
import type { ConversationFields, ConversationView } from "./view";
import { findUserId, type UserRef } from "../users/resolve";

export const RECIPIENT_TYPES = ["web", "sdk"] as const;

type Paging =
  | { version: 2; params: { [K in keyof typeof v2PageParams]?: z.output<(typeof v2PageParams)[K]> } }
  | { version: 1; params: { [K in keyof typeof v1PageParams]?: z.output<(typeof v1PageParams)[K]> } };

export interface UserConversationsInput {
  user: UserRef;
  withUserRepliesOnly?: boolean;
  recipientType?: (typeof RECIPIENT_TYPES)[number];
  fields: ConversationFields;
  paging: Paging;
}

/**
 * A user's conversations, newest `last_update` first, keyset-paged by `[last_update, id]` over the
 * (user_id, last_update, id) index. Rows and their serialisation are the conversations domain's own.
 */
export async function listUserConversations(
  ctx: Ctx,
  input: UserConversationsInput,
): Promise<{ items: ConversationView[]; meta: Record<string, unknown> }> {
  const user = await findUserId(ctx, input.user);
  const conds = [Prisma.sql`c.user_id = ${user.id}`];
  if (input.withUserRepliesOnly) conds.push(Prisma.sql`c.has_user_replies`);
  // Every conversation of this product reaches its visitor through the web widget; there are no SDK recipients.
  if (input.recipientType === "sdk") conds.push(Prisma.sql`FALSE`);
  return pageConversations(ctx, {
    appId: user.appId,
    where: Prisma.join(conds, " AND "),
    fields: input.fields,
    paging: input.paging,
  });
}
