import type { Id, UserShort } from "../leads-types";
import type { Counts } from "../../conversations/counts";

/** Shapes of the conversation and part endpoints as the v2 API returns them (users' shapes: ../leads-types.ts). */

export interface Actor {
  id: Id;
  name: string;
  avatar: string;
  type: "admin";
}

export interface Attachment {
  type: string;
  id: Id;
  filename: string;
  mime_type: string;
  size: number;
  url: string;
  created: number;
}

export interface QuickReplyButton {
  type: "quick_reply";
  body: string;
  meta_data?: Record<string, unknown>;
}

export type PartType =
  | "reply_user"
  | "reply_admin"
  | "note"
  | "article"
  | "assigned"
  | "closed"
  | "reopened"
  | "delayed"
  | "delay_cancelled"
  | "tag_added"
  | "tag_deleted"
  | (string & {});

export interface Part {
  id: Id;
  created: number;
  conversation: Id;
  body: string;
  body_json?: Record<string, unknown> | null;
  read: boolean;
  direction: "u2a" | "a2u";
  type: PartType;
  sent_via?: string | null;
  attachments?: Attachment[];
  meta_data?: Record<string, unknown> | null;
  actions?: QuickReplyButton[] | null;
  part_group?: Id | null;
  /** The visitor's user ID for their messages, the operator otherwise (null for automatic changes). */
  from: Id | Actor | null;
  random_id: number | null;
  assignee?: Actor | null;
}

/** A part the operator sent that the server has not confirmed yet (optimistic), or that failed. */
export interface PendingPart extends Part {
  pending: true;
  /** Upload progress 0–1 while an attachment is sent. */
  progress?: number;
  error?: string;
}

export type ThreadPart = Part | PendingPart;

export interface Conversation {
  id: Id;
  created: number;
  user: UserShort | null;
  channel?: { id: Id; name: string } | null;
  read: boolean;
  replied: boolean;
  closed: boolean;
  type: string;
  part_last: Part | null;
  important_part_last: Part | null;
  reply_last: Part | null;
  parts_count: number;
  assignee: Actor | null;
  unread_parts_count: number;
  last_admin: Actor | null;
  /** Seconds with microseconds (the list position's first half). */
  last_update: number;
  tags: string[];
  delayed_until: number | null;
}

/** The counters' wire shape is the service's own (numbers only); channel IDs come as JSON IDs. */
export type { Counts };

export interface CountsResult extends Counts {
  channels: (Counts & { id: Id })[];
}

/** A v2 keyset page: items plus the position of the next page in each direction. */
export interface Page<T> {
  items: T[];
  next: (number | string)[] | null;
}
