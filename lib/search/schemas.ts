import { z } from "zod";
import { id, seconds } from "../contract/schemas";

/** Which results a search returns: conversations (by message text or visitor), leads (by visitor fields), or both. */
export const SEARCH_KINDS = ["conversations", "leads", "all"] as const;
export const SEARCH_STATES = ["open", "closed", "all"] as const;
export const USER_FIELDS = ["name", "email", "phone", "user_id"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export type SearchState = (typeof SEARCH_STATES)[number];
export type UserField = (typeof USER_FIELDS)[number];

/** A text cut into pieces, the matching ones flagged: safe to render (no markup in the text), easy to style. */
export const highlightSchema = z.array(z.strictObject({ text: z.string(), match: z.boolean() }));

export const searchVisitorSchema = z.strictObject({
  id,
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  user_id: z.string().nullable(),
});

const conversationFields = {
  conversation_id: id,
  closed: z.boolean(),
  assignee_id: id.nullable(),
  last_update: seconds,
  visitor: searchVisitorSchema,
};

/** A reply or note whose text matched: the part, and an excerpt of it with the words found. */
export const messageHitSchema = z.strictObject({
  ...conversationFields,
  part_id: id,
  part_type: z.string(),
  created: seconds,
  highlight: highlightSchema,
});

/** A conversation whose visitor matched by name, email, phone or user ID. */
export const conversationHitSchema = z.strictObject({
  ...conversationFields,
  field: z.enum(USER_FIELDS),
  highlight: highlightSchema,
});

/** A user (lead) matched by name, email, phone or user ID: the field, marked. */
export const leadHitSchema = z.strictObject({
  ...searchVisitorSchema.shape,
  is_lead: z.boolean(),
  last_seen: seconds.nullable(),
  field: z.enum(USER_FIELDS),
  highlight: highlightSchema,
});

/**
 * GET /apps/{id}/search. `messages` pages with `next_cursor` (newest first); `conversations` (by visitor) and
 * `leads` come with the first page only, at most `limit` each.
 */
export const searchResultSchema = z.strictObject({
  messages: z.array(messageHitSchema),
  conversations: z.array(conversationHitSchema),
  leads: z.array(leadHitSchema),
  next_cursor: z.string().nullable(),
});

export type Highlight = z.infer<typeof highlightSchema>;
export type MessageHit = z.infer<typeof messageHitSchema>;
export type ConversationHit = z.infer<typeof conversationHitSchema>;
export type LeadHit = z.infer<typeof leadHitSchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
