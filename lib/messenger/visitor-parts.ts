import type { Ctx } from "../auth/context";
import { visitorOf } from "../auth/context";
import { sqlOf } from "../db/sql";
import { Prisma } from "../db/generated/client";
import { lookupFailed } from "../domain/errors";
import { pageByKeyset } from "../db/keyset";
import type { Keyset, KeysetPage } from "../domain/keyset";
import type { AttachmentUrl } from "../attachments/sign";
import { loadParts, type PartView } from "../parts/load";
import { seconds } from "../parts/serialize";
import { PART_KEY } from "../conversations/get";
import { selectConversations, type ConversationRow } from "../conversations/rows";
import type { Serialized } from "../contract/schemas";
import { VISITOR_PART_TYPES, type VisitorPart } from "./visitor-schemas";

type VisitorPartType = (typeof VISITOR_PART_TYPES)[number];
const VISIBLE = Prisma.sql`p.type IN (${Prisma.join([...VISITOR_PART_TYPES])})`;

export const isVisibleToVisitor = (type: string): type is VisitorPartType =>
  (VISITOR_PART_TYPES as readonly string[]).includes(type);

/**
 * The visitor's own conversation. Another visitor's (or another app's) answers as an unknown one would: a
 * LookupError, so that an ID tells nothing of whether it exists.
 */
export async function visitorConversation(ctx: Ctx, id: bigint): Promise<ConversationRow> {
  const { userId } = visitorOf(ctx);
  const [conv] = await selectConversations(sqlOf(ctx.db), [id]);
  if (!conv || conv.userId !== userId) throw lookupFailed(`Conversation ${id} does not exist.`);
  return conv;
}

/** The conversation's messages the visitor sees, keyset-paged by part ID (newest first by default). */
export async function listVisitorParts(
  ctx: Ctx,
  input: { conversationId: bigint; page: Keyset },
): Promise<KeysetPage<PartView>> {
  const conv = await visitorConversation(ctx, input.conversationId);
  const fetch = async (where: Prisma.Sql, order: Prisma.Sql, limit: number) => {
    const rows = await sqlOf(ctx.db).$queryRaw<{ id: bigint }[]>`
      SELECT p.id FROM conversation_parts p
      WHERE p.conversation_id = ${conv.id} AND ${VISIBLE} AND ${where} ORDER BY ${order} LIMIT ${limit}`;
    return rows.map((r) => r.id);
  };
  const page = await pageByKeyset(input.page, PART_KEY, (id: bigint) => [id], fetch);
  return { items: await loadParts(sqlOf(ctx.db), page.items), next: page.next };
}

/**
 * A part of the visitor's conversation it may click a button of; any other (another conversation's, a note) is
 * unknown to it, as the conversation of another visitor is.
 */
export async function requireVisitorPart(ctx: Ctx, conversationId: bigint, partId: bigint): Promise<void> {
  const [part] = await sqlOf(ctx.db).$queryRaw<{ id: bigint }[]>`
    SELECT p.id FROM conversation_parts p
    WHERE p.id = ${partId} AND p.conversation_id = ${conversationId} AND ${VISIBLE}`;
  if (!part) throw lookupFailed(`Part ${partId} does not exist in this conversation.`);
}

/**
 * Which button of each offer (a part with quick replies) the visitor chose: the visitor's next message when it is
 * one of the buttons' bodies (a click, or the same words typed), before any other message of the team.
 */
export async function chosenActions(ctx: Ctx, parts: PartView[]): Promise<Map<bigint, number | null>> {
  const offers = parts.filter((p) => Array.isArray(p.actions) && p.actions.length);
  if (!offers.length) return new Map();
  const next = await sqlOf(ctx.db).$queryRaw<{ id: bigint; type: string | null; body: string | null }[]>`
    SELECT o.id, n.type, n.body FROM conversation_parts o
    LEFT JOIN LATERAL (
      SELECT r.type, r.body FROM conversation_parts r
      WHERE r.conversation_id = o.conversation_id AND r.id > o.id AND r.type IN (${Prisma.join([...VISITOR_PART_TYPES])})
      ORDER BY r.id LIMIT 1
    ) n ON TRUE
    WHERE o.id IN (${Prisma.join(offers.map((o) => o.id))})`;
  const byId = new Map(next.map((n) => [n.id, n]));
  return new Map(
    offers.map((o) => {
      const n = byId.get(o.id);
      const buttons = o.actions as StoredButton[];
      const i = n?.type === "reply_user" ? buttons.findIndex((b) => b.body === n.body) : -1;
      return [o.id, i >= 0 ? i : null];
    }),
  );
}

/** The newest message the visitor sees in each of the conversations, by conversation ID. */
export async function lastVisibleParts(ctx: Ctx, conversationIds: bigint[]): Promise<Map<bigint, PartView>> {
  if (!conversationIds.length) return new Map();
  const rows = await sqlOf(ctx.db).$queryRaw<{ id: bigint }[]>`
    SELECT (SELECT p.id FROM conversation_parts p WHERE p.conversation_id = c.id AND ${VISIBLE}
            ORDER BY p.id DESC LIMIT 1) AS id
    FROM conversations c WHERE c.id IN (${Prisma.join(conversationIds)})`;
  const parts = await loadParts(
    sqlOf(ctx.db),
    rows.flatMap((r) => (r.id === null ? [] : [r.id])),
  );
  return new Map(parts.map((p) => [p.conversationId, p]));
}

interface StoredButton {
  body?: unknown;
  meta_data?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** What a visitor's part is made of: a loaded part, or one read back from its event (lib/realtime). */
export type VisitorPartSource = Pick<
  PartView,
  | "id"
  | "conversationId"
  | "created"
  | "type"
  | "body"
  | "bodyJson"
  | "fromAdmin"
  | "read"
  | "actions"
  | "randomId"
  | "metaData"
> & { attachments: Pick<PartView["attachments"][number], "id" | "filename" | "mimeType" | "size">[] };

/**
 * A part as its visitor sees it: the operator by name and avatar only, no internal fields (notes, tags, sent_via,
 * external IDs, referrer). Callers pass only visible parts (isVisibleToVisitor).
 */
export function serializeVisitorPart(
  p: VisitorPartSource,
  urls: AttachmentUrl,
  chosen?: Map<bigint, number | null>,
): Serialized<VisitorPart> {
  const type: VisitorPartType = isVisibleToVisitor(p.type) ? p.type : "reply_admin";
  const out: Serialized<VisitorPart> = {
    id: p.id,
    conversation: p.conversationId,
    created: seconds(p.created),
    type,
    body: p.body,
    from:
      type === "reply_user"
        ? { kind: "user" }
        : {
            kind: "admin",
            id: p.fromAdmin?.id ?? 0n,
            name: p.fromAdmin?.name ?? "",
            avatar: p.fromAdmin?.avatar ?? "",
          },
    attachments: p.attachments.map((a) => ({
      id: a.id,
      name: a.filename,
      type: a.mimeType,
      size: a.size,
      url: urls(a.id),
      image: a.mimeType.startsWith("image/"),
    })),
    read: p.read,
  };
  if (isRecord(p.bodyJson) && Object.keys(p.bodyJson).length) out.body_json = p.bodyJson;
  if (Array.isArray(p.actions) && p.actions.length) {
    out.actions = (p.actions as StoredButton[]).map((b) => ({
      type: "button" as const,
      body: typeof b.body === "string" ? b.body : "",
      ...(isRecord(b.meta_data) ? { meta_data: b.meta_data } : {}),
    }));
    if (chosen) out.chosen_action = chosen.get(p.id) ?? null;
  }
  const ask = isRecord(p.metaData) && isRecord(p.metaData.bot_ask) ? p.metaData.bot_ask.input : undefined;
  if (ask === "email" || ask === "phone" || ask === "text") out.ask = ask;
  if (p.randomId !== 0n) out.random_id = p.randomId;
  return out;
}
