import type { Part as PartJson } from "@/lib/parts/schemas";

/**
 * Shapes of the conversation and part endpoints as the v2 API returns them: inferred from the schemas the
 * endpoints declare (type imports only, nothing reaches the bundle). Users' shapes: ../leads-types.ts.
 */
export type { Attachment, QuickReplyButton } from "@/lib/parts/schemas";
export type { Conversation, Counts, CountsResult } from "@/lib/conversations/schemas";

/** What only the server knows of a part: an optimistic part (PendingPart) has none of it yet. */
type ServerKnown =
  "sent_via" | "reply_type" | "edited" | "removed" | "external_id" | "part_group" | "referrer";
/** A part as the thread holds it. */
export type Part = Omit<PartJson, ServerKnown> & Partial<Pick<PartJson, ServerKnown>>;
export type Actor = NonNullable<PartJson["assignee"]>;

/** A part the operator sent that the server has not confirmed yet (optimistic), or that failed. */
export interface PendingPart extends Part {
  pending: true;
  /** The panel's own, to match the server's answer (or retry) by. */
  random_id: number;
  /** Upload progress 0–1 while an attachment is sent. */
  progress?: number;
  error?: string;
}

export type ThreadPart = Part | PendingPart;

/** A v2 keyset page: items plus the position of the next page in each direction. */
export interface Page<T> {
  items: T[];
  next: (number | string)[] | null;
}
