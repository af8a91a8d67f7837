/**
 * The visitor API's shapes as the frame reads them. Boot comes from the server's schemas (type-only imports: no
 * zod in the bundle); conversations and parts follow the messenger contract (issue #17) until their schemas land
 * in lib/messenger/, when these become z.infer aliases of them.
 */
export type { Boot, Visitor, VisitorMessenger } from "../../lib/messenger/visitor-schemas";

export interface Attachment {
  id: number;
  name: string;
  type: string;
  size: number;
  url: string;
  image: boolean;
  width?: number;
  height?: number;
}

export interface QuickReply {
  type: "button";
  body: string;
  meta_data?: Record<string, unknown>;
}

export type Sender = { kind: "user" } | { kind: "admin"; id: number; name: string; avatar?: string | null };

export interface Part {
  /** A number once stored; a string while the frame's own message is on its way. */
  id: number | string;
  conversation: number;
  created: number;
  type: "reply_user" | "reply_admin";
  body: string;
  from: Sender;
  attachments: Attachment[];
  actions?: QuickReply[] | null;
  chosen_action?: number | null;
  read: boolean;
  random_id?: number | null;
  /** Frame-only: the send failed. */
  failed?: boolean;
}

export interface Conversation {
  id: number;
  created: number;
  last_update: number;
  closed: boolean;
  unread: number;
  last_part: Part | null;
  assignee: { id: number; name: string; avatar?: string | null } | null;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}
