import { z } from "zod";
import { id, int64, json, jsonValue, seconds } from "../contract/schemas";

/**
 * What a visitor sees of parts and of its conversations' real-time events (the contract of issue #17). Browser-safe
 * (zod only): the frame's types come from here. Never a note, an assignment or system part, or an operator's email.
 */
const operator = z.strictObject({
  id: id.nullable(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
});

export const visitorAttachmentSchema = z.strictObject({
  id,
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
  url: z.string(),
  image: z.boolean(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
});

export const visitorPartSchema = z.strictObject({
  id,
  conversation: id,
  created: seconds,
  type: z.enum(["reply_user", "reply_admin"]),
  body: z.string(),
  body_json: jsonValue.optional(),
  from: z.union([
    z.strictObject({ kind: z.literal("user") }),
    z.strictObject({ kind: z.literal("admin"), ...operator.shape }),
  ]),
  attachments: z.array(visitorAttachmentSchema),
  actions: z
    .array(z.strictObject({ type: z.literal("button"), body: z.string(), meta_data: json.optional() }))
    .optional(),
  chosen_action: z.number().int().nullable().optional(),
  read: z.boolean(),
  random_id: int64.optional(),
});

export const visitorConversationEventSchema = z.strictObject({
  id,
  created: seconds,
  last_update: z.number(),
  closed: z.boolean(),
  last_part: visitorPartSchema.nullable(),
  assignee: operator.nullable(),
});

/** The messages of the `messenger` subscription, by `type` (the envelope: {id, channel: "messenger", type, message, time}). */
export const visitorRealtimeSchemas = {
  messenger_part: z.strictObject({ conversation: id, part: visitorPartSchema }),
  messenger_typing: z.strictObject({ conversation: id, admin: operator.nullable() }),
  messenger_read: z.strictObject({ conversation: id, by: z.enum(["admin", "user"]) }),
  messenger_conversation: visitorConversationEventSchema,
};

export type VisitorPart = z.infer<typeof visitorPartSchema>;
export type VisitorOperator = z.infer<typeof operator>;
export type VisitorConversationEvent = z.infer<typeof visitorConversationEventSchema>;
export type VisitorRealtimeType = keyof typeof visitorRealtimeSchemas;
export type VisitorRealtimeMessage = {
  [K in VisitorRealtimeType]: { type: K; message: z.infer<(typeof visitorRealtimeSchemas)[K]> };
}[VisitorRealtimeType];
