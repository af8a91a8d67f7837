import type { z } from "zod";
import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import { listChannels } from "../channels/list-channels";
import { paginateV1, paginateV2, type v1PageParams, type v2PageParams } from "../api/pagination";
import { CONVERSATION_KEY, conversationKey } from "../conversations/list";
import { CONVERSATION_COLUMNS, mapConversation, type RawConversation } from "../conversations/rows";
import { hydrateConversations, type ConversationFields, type ConversationView } from "../conversations/view";
import { findUserId, type UserRef } from "./resolve";

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
  const where = Prisma.join(conds, " AND ");
  const fetch = async (keyWhere: Prisma.Sql, order: Prisma.Sql, limit: number) => {
    const rows = await ctx.db.$queryRaw<RawConversation[]>(Prisma.sql`
      SELECT ${CONVERSATION_COLUMNS} FROM conversations c
      WHERE ${where} AND ${keyWhere} ORDER BY ${order} LIMIT ${limit}`);
    return rows.map(mapConversation);
  };
  const page =
    input.paging.version === 2
      ? await paginateV2(input.paging.params, CONVERSATION_KEY, conversationKey, fetch)
      : await paginateV1(input.paging.params, CONVERSATION_KEY, conversationKey, fetch);
  const items = await hydrateConversations(ctx.db, page.items, input.fields, () =>
    listChannels(ctx, { appId: user.appId }),
  );
  return { items, meta: page.meta };
}
