import { z } from "zod";
import { id, int64, seconds } from "../contract/schemas";
import { tokenPairSchema } from "../sessions/schemas";
import { messengerAppearance } from "./schemas";

/**
 * What the messenger (the visitor's side, /api/messenger/…) receives. Browser-safe (zod only): the frame's types
 * come from here.
 */
export const visitorSchema = z.strictObject({
  id,
  /** The site's own user ID once the visitor is identified; null while anonymous. */
  user_id: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  /** No user ID, email or phone yet: not a lead (spec: leads are users with one of them). */
  anonymous: z.boolean(),
});

/** The app's messenger as its visitors see it: appearance and texts, never its origins or secrets. */
export const visitorMessengerSchema = z.strictObject({
  app: id,
  ...messengerAppearance,
  identity_required: z.boolean(),
});

/** Who can answer now, as the boot and every heartbeat tell the messenger. */
export const operatorsNowShape = {
  /** Whether an operator of the app has the panel open now. */
  operators_online: z.boolean(),
  /**
   * Outside the app's office hours (so no operator online), when they open next; null otherwise, and when they do
   * not open within 14 days.
   */
  opens_at: z.iso.datetime().nullable(),
};

export const bootSchema = z.strictObject({
  ...tokenPairSchema.shape,
  visitor: visitorSchema,
  messenger: visitorMessengerSchema,
  /** Admin replies in the visitor's conversations not yet read by the visitor. */
  unread: z.number().int(),
  /** The app has a launcher bot: "New conversation" asks it to open the conversation (POST /messenger/bot_conversations). */
  launcher_bot: z.boolean(),
  /** Known at boot, so that the home's first render already shows the away text and email field. */
  ...operatorsNowShape,
});

export type Visitor = z.infer<typeof visitorSchema>;
export type VisitorMessenger = z.infer<typeof visitorMessengerSchema>;
export type Boot = z.infer<typeof bootSchema>;

/** Part types a visitor sees: messages between them and the team, never notes or system changes. */
export const VISITOR_PART_TYPES = ["reply_user", "reply_admin", "article"] as const;

/** An operator as visitors see them: name and avatar, never their email or anything internal. */
export const visitorAdminSchema = z.strictObject({ id, name: z.string(), avatar: z.string() });

export const visitorAttachmentSchema = z.strictObject({
  id,
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
  /** A signed link that needs no token (valid for days), fit for an <img>. */
  url: z.string(),
  image: z.boolean(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
});

export const visitorActionSchema = z.strictObject({
  type: z.literal("button"),
  body: z.string(),
  meta_data: z.record(z.string(), z.unknown()).optional(),
});

export const visitorPartSchema = z.strictObject({
  id,
  conversation: id,
  created: z.number().int(),
  type: z.enum(VISITOR_PART_TYPES),
  body: z.string(),
  body_json: z.record(z.string(), z.unknown()).optional(),
  from: z.union([
    z.strictObject({ kind: z.literal("user") }),
    z.strictObject({ kind: z.literal("admin"), ...visitorAdminSchema.shape }),
  ]),
  attachments: z.array(visitorAttachmentSchema),
  /** Quick-reply buttons of an operator's reply. */
  actions: z.array(visitorActionSchema).optional(),
  /** Which button the visitor clicked (its index), once they did; null while none was. */
  chosen_action: z.number().int().nullable().optional(),
  /** A bot's question: the answer it wants (the messenger offers a field of that kind). */
  ask: z.enum(["email", "phone", "text"]).optional(),
  read: z.boolean(),
  random_id: int64.optional(),
});

export const visitorConversationSchema = z.strictObject({
  id,
  created: z.number().int(),
  last_update: z.number(),
  closed: z.boolean(),
  /** The team's messages in it the visitor has not read. */
  unread: z.number().int(),
  last_part: visitorPartSchema.nullable(),
  assignee: visitorAdminSchema.nullable(),
});

export const visitorStartedSchema = z.strictObject({
  conversation: visitorConversationSchema,
  part: visitorPartSchema,
});

export type VisitorPart = z.infer<typeof visitorPartSchema>;
export type VisitorConversation = z.infer<typeof visitorConversationSchema>;
export type VisitorAdmin = z.infer<typeof visitorAdminSchema>;

/** What the messenger shows of a chat message or pop-up sent to its visitor. */
export const visitorMessageSchema = z.strictObject({
  send: id,
  message: id,
  kind: z.enum(["chat", "popup"]),
  created: seconds,
  sender: visitorAdminSchema.nullable(),
  title: z.string().nullable(),
  body: z.string(),
  button: z
    .strictObject({ label: z.string(), action: z.enum(["link", "reply"]), url: z.string().nullable() })
    .nullable(),
  email_field: z.boolean(),
});
export type VisitorMessage = z.infer<typeof visitorMessageSchema>;
