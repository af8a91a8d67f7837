import { z } from "zod";
import { id, seconds } from "../contract/schemas";

/** What the app emails, each switchable in Settings → Email. */
export const emailSettingsSchema = z.strictObject({
  app: id,
  sender_name: z.string().describe("The name beside the operator's in From; the app's name unless set"),
  address: z.string().describe("The app's address: mail to it starts a conversation; every email is From it"),
  address_local: z.string().describe("The part of `address` before the @"),
  domain: z.string().describe("INBOUND_EMAIL_DOMAIN: the domain of the app's and the reply addresses"),
  continuity: z.boolean().describe("Operators' unread replies reach the visitor by email"),
  continuity_delay: z.number().describe("Seconds a reply stays unread before it is emailed"),
  operator_emails: z.boolean().describe("Operators are emailed of unread messages, mentions and assignments"),
  operator_delay: z
    .number()
    .describe("Seconds a visitor's message stays unread before its operators are emailed"),
  transcripts: z.boolean().describe("A closed conversation is emailed to its visitor"),
  smtp: z.boolean().describe("Whether an SMTP server is configured; without one emails are stored, not sent"),
  inbound: z
    .strictObject({ smtp_port: z.number().nullable(), http: z.boolean() })
    .describe("How mail reaches the app: the SMTP listener's port, and whether /api/email/inbound is on"),
});
export type EmailSettings = z.infer<typeof emailSettingsSchema>;

export const EMAIL_STATES = ["queued", "sent", "deferred", "bounced", "failed", "not_sent"] as const;
export const EMAIL_KINDS = [
  "continuity",
  "transcript",
  "operator_unread",
  "operator_mention",
  "operator_assigned",
  "message",
  "rating_request",
] as const;

export const emailDeliverySchema = z.strictObject({
  id,
  app: id,
  kind: z.enum(EMAIL_KINDS),
  conversation: id.nullable(),
  to: z.string(),
  subject: z.string(),
  message_id: z.string(),
  state: z.enum(EMAIL_STATES),
  attempts: z.number(),
  /** When a deferred email is tried again. */
  next_attempt: seconds.nullable(),
  last_error: z.string().nullable(),
  created: seconds,
  sent_at: seconds.nullable(),
});
export type EmailDelivery = z.infer<typeof emailDeliverySchema>;

export const emailPreviewSchema = emailDeliverySchema.extend({
  from: z.string(),
  reply_to: z.string().nullable(),
  text: z.string(),
  html: z.string(),
});

export const INBOUND_OUTCOMES = ["appended", "started", "ignored", "refused", "bounce"] as const;
export type InboundOutcome = (typeof INBOUND_OUTCOMES)[number];

/** What became of a message given to the inbound endpoints. */
export const inboundResultSchema = z.strictObject({
  outcome: z.enum(INBOUND_OUTCOMES),
  reason: z.string().nullable(),
  conversation: id.nullable(),
});

export const operatorEmailPrefsSchema = z.strictObject({
  unread: z.boolean().describe("A visitor's message no one read within the app's operator delay"),
  mention: z.boolean().describe("A teammate's @mention in a note"),
  assigned: z.boolean().describe("A conversation assigned to me"),
});
export type OperatorEmailPrefs = z.infer<typeof operatorEmailPrefsSchema>;

/** GET /apps/{id}/email/bounces: whether the app sends nothing more to an address, since a hard bounce. */
export const emailBounceSchema = z.strictObject({
  address: z.string(),
  bouncing: z.boolean(),
  reason: z.string().nullable(),
  since: seconds.nullable(),
});
export type EmailBounce = z.infer<typeof emailBounceSchema>;
