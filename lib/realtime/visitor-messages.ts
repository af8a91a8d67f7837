import type { Actor, Part } from "../parts/schemas";
import { visitorPartOfPayload, visitorOperator } from "../messenger/visitor-parts-live";
import type { VisitorConversationEvent, VisitorRealtimeMessage } from "../messenger/visitor-realtime-schemas";
import type { LogRow } from "./log-rows";

/** The channel a visitor subscribes to; what it receives are its own conversations' events, visitor-shaped. */
export const MESSENGER_CHANNEL = "messenger";

/** The event-log channels a visitor's messages come from (`<kind>.<app>`, rows of its user). */
const KINDS = [
  "conversation",
  "conversation_reply",
  "conversation_started_user",
  "conversation_read",
  "conversation_assigned",
  "conversation_closed",
] as const;

export const visitorSources = (appId: bigint) => KINDS.map((k) => `${k}.${appId}`);

/**
 * The conversations as their latest `conversation` rows left them (per visitor): a close, an assignment or a
 * reopening row follows its transaction's `conversation` row, which gives the rest of the summary.
 */
export type ConversationMemo = Map<string, VisitorConversationEvent>;

interface ConversationJson {
  id: number;
  created: number;
  last_update: number;
  closed: boolean;
  reply_last?: Part | null;
  assignee: Actor | null;
}

function summaryOf(c: ConversationJson): VisitorConversationEvent {
  return {
    id: c.id,
    created: c.created,
    last_update: c.last_update,
    closed: c.closed,
    last_part: (c.reply_last && visitorPartOfPayload(c.reply_last)) ?? null,
    assignee: c.assignee ? visitorOperator(c.assignee) : null,
  };
}

/**
 * What a visitor receives of one row of its user's events (at most one message, so the row's id is its position):
 * nothing for notes, system parts, tags or the operators' own bookkeeping.
 */
export function visitorMessageOf(row: LogRow, memo: ConversationMemo): VisitorRealtimeMessage | undefined {
  const kind = row.channel.slice(0, row.channel.lastIndexOf("."));
  const p = row.payload as Record<string, unknown>;
  switch (kind) {
    case "conversation_reply": {
      const part = visitorPartOfPayload(p as unknown as Part);
      return part && { type: "messenger_part", message: { conversation: part.conversation, part } };
    }
    case "conversation":
      memo.set(String(p.id), summaryOf(p as unknown as ConversationJson));
      return undefined;
    case "conversation_started_user": {
      const summary = summaryOf(p as unknown as ConversationJson);
      memo.set(String(summary.id), summary);
      return { type: "messenger_conversation", message: summary };
    }
    case "conversation_read":
      return {
        type: "messenger_read",
        message: { conversation: p.conversation as number, by: p.by === "admin" ? "admin" : "user" },
      };
    case "conversation_closed":
    case "conversation_assigned": {
      const id = p.conversation as number;
      const known = memo.get(String(id));
      const summary: VisitorConversationEvent = known
        ? { ...known }
        : {
            id,
            created: 0,
            last_update: row.created.getTime() / 1000,
            closed: false,
            last_part: null,
            assignee: null,
          };
      if (kind === "conversation_closed") summary.closed = p.closed === true;
      else summary.assignee = p.assignee ? visitorOperator(p.assignee as Actor) : null;
      memo.set(String(id), summary);
      return { type: "messenger_conversation", message: summary };
    }
    default:
      return undefined;
  }
}
