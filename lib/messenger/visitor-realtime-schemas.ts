import { z } from "zod";
import { id, seconds } from "../contract/schemas";
import { visitorAdminSchema, visitorPartSchema } from "./visitor-schemas";

/**
 * What a visitor receives on its `messenger` subscription (the contract of issue #17), with the parts and
 * operators of the visitor API (visitor-schemas.ts). Browser-safe (zod only): the frame's types come from here.
 * Never a note, an assignment or system part, or an operator's email.
 */
export const visitorConversationEventSchema = z.strictObject({
  id,
  created: seconds,
  last_update: z.number(),
  closed: z.boolean(),
  last_part: visitorPartSchema.nullable(),
  assignee: visitorAdminSchema.nullable(),
});

/** The messages of the `messenger` subscription, by `type` (the envelope: {id, channel: "messenger", type, message, time}). */
export const visitorRealtimeSchemas = {
  messenger_part: z.strictObject({ conversation: id, part: visitorPartSchema }),
  messenger_typing: z.strictObject({ conversation: id, admin: visitorAdminSchema.nullable() }),
  messenger_read: z.strictObject({ conversation: id, by: z.enum(["admin", "user"]) }),
  messenger_conversation: visitorConversationEventSchema,
};

export type VisitorConversationEvent = z.infer<typeof visitorConversationEventSchema>;
export type VisitorRealtimeType = keyof typeof visitorRealtimeSchemas;
export type VisitorRealtimeMessage = {
  [K in VisitorRealtimeType]: { type: K; message: z.infer<(typeof visitorRealtimeSchemas)[K]> };
}[VisitorRealtimeType];
