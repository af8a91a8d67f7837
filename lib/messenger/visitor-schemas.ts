import { z } from "zod";
import { id } from "../contract/schemas";
import { tokenPairSchema } from "../sessions/schemas";
import { MESSENGER_POSITIONS } from "./schemas";

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
  accent_color: z.string(),
  position: z.enum(MESSENGER_POSITIONS),
  greeting: z.string(),
  team_intro: z.string(),
  reply_time_text: z.string(),
  offline_text: z.string(),
  email_prompt: z.string(),
  identity_required: z.boolean(),
});

export const bootSchema = z.strictObject({
  ...tokenPairSchema.shape,
  visitor: visitorSchema,
  messenger: visitorMessengerSchema,
  /** Admin replies in the visitor's conversations not yet read by the visitor. */
  unread: z.number().int(),
});

export type Visitor = z.infer<typeof visitorSchema>;
export type VisitorMessenger = z.infer<typeof visitorMessengerSchema>;
export type Boot = z.infer<typeof bootSchema>;
