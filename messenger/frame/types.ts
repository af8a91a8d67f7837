/**
 * The visitor API's shapes as the frame reads them: the server's schemas (lib/messenger/visitor-schemas.ts),
 * imported as types only (no zod in the bundle). IDs come as numbers (the frame never asks for id_as_string);
 * the frame's own message on its way has a string ID until the stored part replaces it.
 */
import type { VisitorConversation, VisitorMessage, VisitorPart } from "../../lib/messenger/visitor-schemas";
import type { VisitorRating } from "../../lib/csat/schemas";

export type { VisitorRating } from "../../lib/csat/schemas";

export type {
  Boot,
  Visitor,
  VisitorConversation,
  VisitorMessage,
  VisitorMessenger,
  VisitorPart,
} from "../../lib/messenger/visitor-schemas";

export type Part = Omit<VisitorPart, "id" | "conversation"> & {
  id: number | string;
  conversation: number;
  /** Frame-only: the send failed. */
  failed?: boolean;
};

export type Attachment = Part["attachments"][number];

export type Conversation = Omit<VisitorConversation, "id" | "last_part"> & {
  id: number;
  last_part: Part | null;
};

/** A chat message or pop-up sent to the visitor (lib/messages), its IDs as numbers. */
export type AutoMessage = Omit<VisitorMessage, "send" | "message"> & { send: number; message: number };

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** A conversation's rating asked (`rating` null) or given (lib/csat), its ID as a number. */
export type Rating = Omit<VisitorRating, "conversation"> & { conversation: number };
