import { z } from "zod";
import { id, seconds } from "../contract/schemas";

export const NOTIFICATION_KINDS = ["mention", "assigned", "reply"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The Notification object (serializeNotification), v2; also the payload of `notification.<app>.<admin>`. */
export const notificationSchema = z.strictObject({
  id,
  app: id,
  kind: z.enum(NOTIFICATION_KINDS),
  conversation: id,
  part: id.nullable(),
  /** The operator who mentioned or assigned; null for a visitor's reply. */
  actor: z.strictObject({ id, name: z.string() }).nullable(),
  /** The start of the note or reply, for the list. */
  excerpt: z.string(),
  /** How many conversations it tells of: 1, or a bulk job's (one notification per job, `conversation` its first). */
  count: z.number().int(),
  /** The bulk job it sums up, or null. */
  bulk_job: id.nullable(),
  created: seconds,
  read_at: seconds.nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsMetaSchema = z.strictObject({ unread: z.number().int() });
export const notificationsReadSchema = z.strictObject({ read: z.number().int(), unread: z.number().int() });
export type NotificationsRead = z.infer<typeof notificationsReadSchema>;
