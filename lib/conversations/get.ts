import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { lookupFailed } from "../domain/errors";
import { Prisma } from "../db/generated/client";
import { listChannels } from "../channels/list-channels";
import { pageByKeyset, type KeyColumn } from "../db/keyset";
import type { Keyset, KeysetPage } from "../domain/keyset";
import { loadParts, type PartView } from "../parts/load";
import { selectConversations, type ConversationRow } from "./rows";
import { hydrateConversations, type ConversationFields, type ConversationView } from "./view";

async function ownConversation(ctx: Ctx, id: bigint): Promise<ConversationRow> {
  const [conv] = await selectConversations(sqlOf(ctx.db), [id]);
  if (!conv) throw lookupFailed(`Conversation ${id} does not exist.`);
  assertApp(ctx, conv.appId);
  return conv;
}

export async function getConversation(
  ctx: Ctx,
  input: { id: bigint; fields: ConversationFields },
): Promise<ConversationView> {
  const conv = await ownConversation(ctx, input.id);
  const [view] = await hydrateConversations(sqlOf(ctx.db), [conv], input.fields, () =>
    listChannels(ctx, { appId: conv.appId }),
  );
  return view!;
}

export const PART_KEY: KeyColumn[] = [{ kind: "id", sql: Prisma.sql`p.id` }];

/** A conversation's parts, keyset-paged by part ID (the API's default: newest first). */
export async function listConversationParts(
  ctx: Ctx,
  input: { conversationId: bigint; page: Keyset },
): Promise<KeysetPage<PartView>> {
  const conv = await ownConversation(ctx, input.conversationId);
  const fetch = async (where: Prisma.Sql, order: Prisma.Sql, limit: number) => {
    const rows = await sqlOf(ctx.db).$queryRaw<{ id: bigint }[]>`
      SELECT p.id FROM conversation_parts p
      WHERE p.conversation_id = ${conv.id} AND ${where} ORDER BY ${order} LIMIT ${limit}`;
    return rows.map((r) => r.id);
  };
  const keyOf = (id: bigint) => [id];
  const page = await pageByKeyset(input.page, PART_KEY, keyOf, fetch);
  return { items: await loadParts(sqlOf(ctx.db), page.items), next: page.next };
}
