import type { Queryable } from "../db/sql";

/** A mention or an assignment, emailed to its operator (lib/email/operator-emails.ts) unless they turned it off. */
export const NOTIFY_EMAIL_QUEUE = "email.notify";

/**
 * Queues a notification's email in the transaction that wrote it: only a mention or an assignment, only if the app
 * emails its operators and the operator wants that kind (a single assignment and a bulk job's alike).
 */
export function queueNotificationEmail(
  tx: Queryable,
  appId: bigint,
  d: { adminId: bigint; kind: string },
  notificationId: bigint,
) {
  return tx.$executeRaw`
    INSERT INTO jobs (queue, payload)
    SELECT ${NOTIFY_EMAIL_QUEUE}, jsonb_build_object('notification', ${String(notificationId)}::text)
    FROM admins a LEFT JOIN email_settings s ON s.app_id = ${appId}
    WHERE a.id = ${d.adminId} AND COALESCE(s.operator_emails, true)
      AND CASE WHEN ${d.kind} = 'mention' THEN a.email_on_mention ELSE a.email_on_assigned END`;
}
