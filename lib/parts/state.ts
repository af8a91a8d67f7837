/**
 * The conversation fields that follow from its parts, and how each new part changes them. Pure: the writer applies
 * it under the conversation's row lock, so the stored counters are exact whatever the concurrency.
 */
export const MESSAGE_TYPES = ["reply_user", "reply_admin", "note", "article"] as const;
export const SYSTEM_TYPES = [
  "assigned",
  "closed",
  "reopened",
  "delayed",
  "delay_cancelled",
  "tag_added",
  "tag_deleted",
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export type SystemType = (typeof SYSTEM_TYPES)[number];
export type PartType = MessageType | SystemType;

export interface ConversationState {
  partsCount: number;
  unreadPartsCount: number;
  read: boolean;
  replied: boolean;
  answered: boolean;
  hasUserReplies: boolean;
  lastAdminId: bigint | null;
  assigneeId: bigint | null;
  closed: boolean;
  delayedUntil: Date | null;
  tags: string[];
  partLastId: bigint | null;
  importantPartLastId: bigint | null;
  replyLastId: bigint | null;
}

/** A conversation before its first part. */
export const EMPTY_STATE: ConversationState = {
  partsCount: 0,
  unreadPartsCount: 0,
  read: true,
  replied: false,
  answered: false,
  hasUserReplies: false,
  lastAdminId: null,
  assigneeId: null,
  closed: false,
  delayedUntil: null,
  tags: [],
  partLastId: null,
  importantPartLastId: null,
  replyLastId: null,
};

/** `sent_via` of a bot's messages (lib/conversations/bot-run.ts). */
export const BOT_VIA = "bot";

export interface StatePart {
  id: bigint;
  type: PartType;
  sentVia?: string;
  fromAdminId: bigint | null;
  /** On `assigned` parts: the new assignee (null unassigns). */
  assigneeId?: bigint | null;
  /** On `delayed` parts. */
  delayedUntil?: Date;
  /** On tag parts: the conversation's tags afterwards. */
  tags?: string[];
}

export function isMessage(type: string): type is MessageType {
  return (MESSAGE_TYPES as readonly string[]).includes(type);
}

/** Who a part is for: visitors' messages go to operators, everything else comes from the operators' side. */
export function directionOf(type: PartType): "u2a" | "a2u" {
  return type === "reply_user" ? "u2a" : "a2u";
}

/** A new part is unread by its recipient; notes and system parts have none. */
export function initiallyRead(type: PartType): boolean {
  return !(type === "reply_user" || type === "reply_admin" || type === "article");
}

export function applyPart(s: ConversationState, p: StatePart): ConversationState {
  const n: ConversationState = { ...s, partsCount: s.partsCount + 1, partLastId: p.id };
  if (isMessage(p.type)) n.importantPartLastId = p.id;
  switch (p.type) {
    case "reply_user":
      // A visitor's message wakes a snoozed conversation and reopens a closed one.
      n.replyLastId = p.id;
      n.hasUserReplies = true;
      n.answered = false;
      n.unreadPartsCount = s.unreadPartsCount + 1;
      n.read = false;
      n.closed = false;
      n.delayedUntil = null;
      break;
    case "reply_admin":
    case "article":
      n.replyLastId = p.id;
      // A bot's message answers nobody: once it hands over, the team still has the visitor's messages to read.
      if (p.sentVia === BOT_VIA) break;
      // Answering implies the operator has seen what the visitor wrote.
      n.replied = true;
      n.answered = true;
      n.lastAdminId = p.fromAdminId ?? s.lastAdminId;
      n.unreadPartsCount = 0;
      n.read = true;
      break;
    case "note":
      break;
    case "assigned":
      n.assigneeId = p.assigneeId ?? null;
      break;
    case "closed":
      n.closed = true;
      n.delayedUntil = null;
      break;
    case "reopened":
      n.closed = false;
      break;
    case "delayed":
      // Snoozing is a kind of open: a closed conversation snoozed comes back open when it wakes.
      n.closed = false;
      n.delayedUntil = p.delayedUntil ?? null;
      break;
    case "delay_cancelled":
      n.delayedUntil = null;
      break;
    case "tag_added":
    case "tag_deleted":
      n.tags = p.tags ?? s.tags;
      break;
  }
  return n;
}
