import { z } from "zod";
import { actor, id, seconds } from "../contract/schemas";
import { partSchema } from "../parts/schemas";
import { userShortSchema } from "../users/schemas";
import { channelSchema } from "../channels/schemas";

/** The Conversation object (lib/conversations/view.ts): v2 adds `delayed_until` and keeps microseconds. */
const conversationFields = {
  id,
  created: seconds,
  // user, channel and the three parts are there when their switch (CONVERSATION_FIELDS) is on.
  user: userShortSchema.nullable().optional(),
  channel: channelSchema.nullable().optional(),
  read: z.boolean(),
  replied: z.boolean(),
  clicked: z.boolean(),
  unsubscribed: z.boolean(),
  closed: z.boolean(),
  /**
   * How the conversation began: `{type: "manual", sent_via}` when an operator started it, the proactive message's
   * ID when the visitor answered one, or null.
   */
  message: z.union([z.looseObject({ type: z.string().optional() }), id]).nullable(),
  type: z.string(),
  reply_type: z.string(),
  part_last: partSchema.nullable().optional(),
  important_part_last: partSchema.nullable().optional(),
  reply_last: partSchema.nullable().optional(),
  parts_count: z.number().int(),
  assignee: actor.nullable(),
  unread_parts_count: z.number().int(),
  last_admin: actor.nullable(),
  /** v1: whole seconds; v2: seconds with microseconds (the list position's first half). */
  last_update: z.number(),
  tags: z.array(z.string()),
  /** The bot running the conversation (lead_bot, routing_bot), null once a person has it. */
  assistant_type: z.string().nullable(),
};
export const conversationV1Schema = z.strictObject(conversationFields);
export const conversationV2Schema = z.strictObject({
  ...conversationFields,
  delayed_until: seconds.nullable(),
});
export type Conversation = z.infer<typeof conversationV2Schema>;

/** The Inbox tabs' counters (lib/conversations/counts.ts); `id` 0 stands for conversations without a channel. */
export const countsSchema = z.strictObject({
  open: z.number().int(),
  closed: z.number().int(),
  delayed: z.number().int(),
  mine: z.number().int(),
  unassigned: z.number().int(),
});
export const countsResultSchema = countsSchema.extend({ channels: z.array(countsSchema.extend({ id })) });
export type Counts = z.infer<typeof countsSchema>;
export type CountsResult = z.infer<typeof countsResultSchema>;

/** v1's reply: the part's ID (and the assignment it caused). */
export const replyV1Schema = z.strictObject({ id, id_assign_part: id.optional() });
/** v1's start and send: the conversation's ID; v2 adds the first part. */
export const startedV1Schema = z.strictObject({ id });
export const startedV2Schema = z.strictObject({ id, part: partSchema });
/** v2's reply: the part, and the assignment part when the reply assigned the conversation. */
export const replyV2Schema = partSchema.extend({ assign_part: partSchema.optional() });

/**
 * The list's `rating` filter (v2; lib/csat): rated, unrated (asked, not rated), good (4–5), bad (1–3) or one score.
 */
export const RATING_FILTERS = ["rated", "unrated", "good", "bad", "1", "2", "3", "4", "5"] as const;
export type RatingFilter = (typeof RATING_FILTERS)[number];
