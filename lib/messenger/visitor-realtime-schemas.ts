import { z } from "zod";
import { id } from "../contract/schemas";
import {
  visitorAdminSchema,
  visitorConversationSchema,
  visitorMessageSchema,
  visitorPartSchema,
} from "./visitor-schemas";
import { visitorRatingSchema } from "../csat/schemas";

/**
 * The messages of a visitor socket's `messenger` subscription, by `type`; the envelope is the operators' one,
 * `{id, channel: "messenger", type, message, time}` (`id` the event position to resume from, null for typing).
 * Browser-safe (zod only): the frame's types come from here.
 */

/**
 * A conversation's change (start by either side, close, reopen, assignment): the list's item, `unread` as of the
 * change (the frame adds the team's later messages as they arrive).
 */
export const visitorConversationEventSchema = visitorConversationSchema;

export const visitorRealtimeSchemas = {
  messenger_part: z.strictObject({ conversation: id, part: visitorPartSchema }),
  messenger_typing: z.strictObject({ conversation: id, admin: visitorAdminSchema }),
  messenger_read: z.strictObject({ conversation: id, by: z.enum(["admin", "user"]) }),
  messenger_conversation: visitorConversationEventSchema,
  /** A chat message or pop-up sent to the visitor (lib/messages). */
  messenger_message: visitorMessageSchema,
  /** A conversation's rating asked (`rating` null: the card to rate it) or given (lib/csat). */
  messenger_rating: visitorRatingSchema,
  /**
   * Who can answer changed (an operator went Away or came back): what the heartbeat answers, pushed to every
   * visitor of the app at once. Not stored (`id` null): a reconnecting frame asks with its heartbeat.
   */
  messenger_status: z.strictObject({
    operators_online: z.boolean(),
    opens_at: z
      .string()
      .nullable()
      .meta({ description: "outside office hours: when they open next (ISO 8601)" }),
  }),
};

export type VisitorConversationEvent = z.infer<typeof visitorConversationEventSchema>;
export type VisitorRealtimeType = keyof typeof visitorRealtimeSchemas;
export type VisitorRealtimeMessage = {
  [K in VisitorRealtimeType]: { type: K; message: z.infer<(typeof visitorRealtimeSchemas)[K]> };
}[VisitorRealtimeType];
