import { z } from "zod";
import { actor, id, int64, json, jsonValue, seconds } from "../contract/schemas";

/** The Part object (lib/parts/serialize.ts), the same in v1 and v2. */
export const attachmentSchema = z.strictObject({
  type: z.string(),
  id,
  filename: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  url: z.string(),
  created: seconds,
});

export const quickReplyButtonSchema = z.object({
  type: z.literal("quick_reply"),
  body: z.string(),
  meta_data: json.optional(),
});

export const partSchema = z.strictObject({
  id,
  created: seconds,
  conversation: id,
  body: z.string(),
  /** The optional fields (GET parts' switches) are left out when switched off. */
  body_json: json.nullable().optional(),
  read: z.boolean(),
  direction: z.enum(["u2a", "a2u"]),
  type: z.string(),
  sent_via: z.string(),
  attachments: z.array(attachmentSchema).optional(),
  meta_data: json.nullable().optional(),
  reply_type: z.string(),
  actions: z.array(quickReplyButtonSchema).nullable().optional(),
  edited: jsonValue,
  removed: jsonValue,
  external_id: z.string().nullable(),
  part_group: id,
  /** The visitor's user ID for their messages, the operator otherwise (null for automatic changes). */
  from: z.union([id, actor]).nullable(),
  random_id: int64,
  referrer: z.string().nullable(),
  /** Only on `assigned` parts. */
  assignee: actor.nullable().optional(),
});
export type Part = z.infer<typeof partSchema>;
export type Attachment = z.infer<typeof attachmentSchema>;
export type QuickReplyButton = z.infer<typeof quickReplyButtonSchema>;
export type Actor = z.infer<typeof actor>;

/** A conversation change's answer: the part it added, or nothing when there was nothing to change. */
export const changeSchema = z.union([z.strictObject({ id, part_group: id }), z.strictObject({})]);
