import type { Ctx } from "../auth/context";
import { visitorOf } from "../auth/context";
import { sqlOf } from "../db/sql";
import { Prisma } from "../db/generated/client";
import { pageByKeyset } from "../db/keyset";
import type { Keyset, KeysetPage } from "../domain/keyset";
import type { AttachmentUrl } from "../attachments/sign";
import { loadActors, type ActorView, type PartView } from "../parts/load";
import { seconds } from "../parts/serialize";
import { CONVERSATION_KEY, conversationKey } from "../conversations/list";
import {
  CONVERSATION_COLUMNS,
  mapConversation,
  selectConversations,
  type ConversationRow,
  type RawConversation,
} from "../conversations/rows";
import type { Serialized } from "../contract/schemas";
import { lastVisibleParts, serializeVisitorPart } from "./visitor-parts";
import type { VisitorConversation } from "./visitor-schemas";

/** A conversation with what its visitor's summary shows. */
export interface VisitorConversationView {
  row: ConversationRow;
  unread: number;
  lastPart: PartView | null;
  assignee: ActorView | null;
}

async function hydrate(ctx: Ctx, rows: ConversationRow[]): Promise<VisitorConversationView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const unread = await sqlOf(ctx.db).$queryRaw<{ id: bigint; n: bigint }[]>`
    SELECT p.conversation_id AS id, count(*)::bigint AS n FROM conversation_parts p
    WHERE p.conversation_id IN (${Prisma.join(ids)}) AND p.direction = 'a2u' AND p.read = false
    GROUP BY p.conversation_id`;
  const unreadBy = new Map(unread.map((r) => [r.id, Number(r.n)]));
  const last = await lastVisibleParts(ctx, ids);
  const admins = await loadActors(
    sqlOf(ctx.db),
    rows.map((r) => r.assigneeId),
  );
  return rows.map((row) => ({
    row,
    unread: unreadBy.get(row.id) ?? 0,
    lastPart: last.get(row.id) ?? null,
    assignee: row.assigneeId === null ? null : (admins.get(row.assigneeId) ?? null),
  }));
}

/** The visitor's own conversations, keyset-paged by `[last_update, id]` (newest first by default). */
export async function listVisitorConversations(
  ctx: Ctx,
  page: Keyset,
): Promise<KeysetPage<VisitorConversationView>> {
  const { userId } = visitorOf(ctx);
  const fetch = async (keyWhere: Prisma.Sql, order: Prisma.Sql, limit: number) => {
    const rows = await sqlOf(ctx.db).$queryRaw<RawConversation[]>`
      SELECT ${CONVERSATION_COLUMNS} FROM conversations c
      WHERE c.user_id = ${userId} AND ${keyWhere} ORDER BY ${order} LIMIT ${limit}`;
    return rows.map(mapConversation);
  };
  const rows = await pageByKeyset(page, CONVERSATION_KEY, conversationKey, fetch);
  return { items: await hydrate(ctx, rows.items), next: rows.next };
}

/** One conversation's summary (after a start), read after its transaction committed. */
export async function visitorConversationView(ctx: Ctx, id: bigint): Promise<VisitorConversationView> {
  const rows = await selectConversations(sqlOf(ctx.db), [id]);
  const [view] = await hydrate(ctx, rows);
  if (!view) throw new Error(`conversation ${id} vanished`);
  return view;
}

export function serializeVisitorConversation(
  v: VisitorConversationView,
  urls: AttachmentUrl,
): Serialized<VisitorConversation> {
  return {
    id: v.row.id,
    created: seconds(v.row.created),
    last_update: Number(v.row.lastUpdateUs) / 1e6,
    closed: v.row.closed,
    unread: v.unread,
    last_part: v.lastPart ? serializeVisitorPart(v.lastPart, urls) : null,
    assignee: v.assignee ? { id: v.assignee.id, name: v.assignee.name, avatar: v.assignee.avatar } : null,
  };
}
