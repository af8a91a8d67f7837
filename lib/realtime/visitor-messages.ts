import type { Actor, Part } from "../parts/schemas";
import type { AttachmentUrl } from "../attachments/sign";
import { toJson } from "../domain/json";
import { isVisibleToVisitor, serializeVisitorPart, type VisitorPartSource } from "../messenger/visitor-parts";
import { visitorMessageSchema, type VisitorPart } from "../messenger/visitor-schemas";
import type { VisitorConversationEvent, VisitorRealtimeMessage } from "../messenger/visitor-realtime-schemas";
import type { LogRow } from "./log-rows";
import { appChannel, type LoggedKind, type SocketPayload } from "../contract/socket";
import type { Conversation } from "../conversations/schemas";
import type { Queryable } from "../db/sql";
import { conversationUnreadAsOf } from "../messenger/boot";

/** The event-log channels a visitor's messages come from (`<kind>.<app>`, rows of its user). */
const KINDS = [
  "conversation",
  "conversation_reply",
  "conversation_started_user",
  "conversation_read",
  "conversation_assigned",
  "conversation_closed",
  "conversation_rating",
  "event",
] as const satisfies LoggedKind[];
type VisitorSourceKind = (typeof KINDS)[number];

export const visitorSources = (appId: bigint) => KINDS.map((k) => appChannel(k, appId));

/**
 * A row of those kinds as its writer typed it: each is written through the contract's SocketEvent, so its payload
 * is its kind's, as JSON (contract.api.test.ts checks stored rows against the schemas). Not parsed again here: this
 * runs for every row of a connected visitor.
 */
type VisitorSourceRow = {
  [K in VisitorSourceKind]: { kind: K; payload: SocketPayload<K> };
}[VisitorSourceKind];

function sourceRow(row: LogRow): VisitorSourceRow | undefined {
  const kind = row.channel.slice(0, row.channel.indexOf("."));
  return (KINDS as readonly string[]).includes(kind)
    ? ({ kind, payload: row.payload } as VisitorSourceRow)
    : undefined;
}

/** A conversation's summary as its rows tell it; `unread` is counted when it is sent (withUnread). */
export type ConversationSummary = Omit<VisitorConversationEvent, "unread">;

/**
 * The conversations as their latest `conversation` rows left them (per visitor): a close, an assignment or a
 * reopening row follows its transaction's `conversation` row, which gives the rest of the summary.
 */
export type ConversationMemo = Map<string, ConversationSummary>;

/** A visitor message as a row makes it: a conversation's summary still lacks its unread count. */
export type RowMessage =
  | Exclude<VisitorRealtimeMessage, { type: "messenger_conversation" }>
  | { type: "messenger_conversation"; message: ConversationSummary };

/** The message with its unread count, as of the summary's `last_update`. */
export async function withUnread(db: Queryable, m: RowMessage): Promise<VisitorRealtimeMessage> {
  if (m.type !== "messenger_conversation") return m;
  const upToUs = BigInt(Math.round(m.message.last_update * 1e6));
  return {
    ...m,
    message: { ...m.message, unread: await conversationUnreadAsOf(db, BigInt(m.message.id), upToUs) },
  };
}

/** The visitor's part of an event's part (the API v2 object), through the visitor API's own serializer. */
function visitorPart(p: Part): VisitorPart | undefined {
  if (!isVisibleToVisitor(p.type)) return undefined;
  const attachments = p.attachments ?? [];
  const src: VisitorPartSource = {
    id: BigInt(p.id),
    conversationId: BigInt(p.conversation),
    created: new Date(p.created * 1000),
    type: p.type,
    body: p.body,
    bodyJson: (p.body_json ?? null) as VisitorPartSource["bodyJson"],
    fromAdmin: typeof p.from === "object" && p.from ? { ...p.from, id: BigInt(p.from.id) } : null,
    read: p.read,
    actions: (p.actions ?? null) as VisitorPartSource["actions"],
    metaData: (p.meta_data ?? null) as VisitorPartSource["metaData"],
    randomId: BigInt(p.random_id),
    attachments: attachments.map((a) => ({
      id: BigInt(a.id),
      filename: a.filename,
      mimeType: a.mime_type,
      size: a.size,
    })),
  };
  // The event's links, signed when it was written.
  const urls: AttachmentUrl = (id) => attachments.find((a) => BigInt(a.id) === id)?.url ?? "";
  return JSON.parse(toJson(serializeVisitorPart(src, urls), false)) as VisitorPart;
}

const admin = (a: Actor | null | undefined) => (a ? { id: a.id, name: a.name, avatar: a.avatar } : null);

function summaryOf(c: Conversation): ConversationSummary {
  return {
    id: c.id,
    created: c.created,
    last_update: c.last_update,
    closed: c.closed,
    last_part: (c.reply_last && visitorPart(c.reply_last)) ?? null,
    assignee: admin(c.assignee),
  };
}

/**
 * What a visitor receives of one row of its user's events (at most one message, so the row's id is its position):
 * nothing for notes, system parts, tags or the operators' own bookkeeping.
 */
export function visitorMessageOf(row: LogRow, memo: ConversationMemo): RowMessage | undefined {
  const source = sourceRow(row);
  if (!source) return undefined;
  switch (source.kind) {
    case "conversation_reply": {
      const part = visitorPart(source.payload);
      return part && { type: "messenger_part", message: { conversation: part.conversation, part } };
    }
    case "conversation": {
      const c = source.payload;
      const summary = summaryOf(c);
      memo.set(String(summary.id), summary);
      // An operator's message that started it (its opening row: one part), or a bot a proactive message started
      // (while it runs): the visitor's list gets it live, as a conversation the visitor started gets its
      // conversation_started_user row.
      const opened =
        (typeof c.message === "object" && c.message?.type === "manual" && c.parts_count === 1) ||
        (typeof c.message === "number" && c.assistant_type !== null);
      return opened ? { type: "messenger_conversation", message: summary } : undefined;
    }
    case "conversation_started_user": {
      const summary = summaryOf(source.payload);
      memo.set(String(summary.id), summary);
      return { type: "messenger_conversation", message: summary };
    }
    case "event": {
      // A chat message or pop-up sent: its `$message_sent` event carries what the messenger shows.
      const e = source.payload;
      const kind = e.props.kind;
      if (e.type.name !== "$message_sent" || (kind !== "chat" && kind !== "popup")) return undefined;
      // Checked: an API client may track an event of that name with props of its own.
      const shown = visitorMessageSchema.safeParse(e.props);
      return shown.success ? { type: "messenger_message", message: shown.data } : undefined;
    }
    case "conversation_rating": {
      const r = source.payload;
      return {
        type: "messenger_rating",
        message: { conversation: r.conversation, rating: r.rating, comment: r.comment, rated: r.rated },
      };
    }
    case "conversation_read":
      return {
        type: "messenger_read",
        message: { conversation: source.payload.conversation, by: source.payload.by },
      };
    case "conversation_closed":
    case "conversation_assigned": {
      const id = source.payload.conversation;
      // Without its `conversation` row (a replay that starts between the two): what the row itself says.
      const summary: ConversationSummary = {
        ...(memo.get(String(id)) ?? {
          id,
          created: 0,
          last_update: row.created.getTime() / 1000,
          closed: false,
          last_part: null,
          assignee: null,
        }),
      };
      if (source.kind === "conversation_closed") summary.closed = source.payload.closed;
      else summary.assignee = admin(source.payload.assignee);
      memo.set(String(id), summary);
      return { type: "messenger_conversation", message: summary };
    }
  }
}
