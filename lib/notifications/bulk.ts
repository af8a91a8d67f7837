import type { Queryable } from "../db/sql";
import type { Emit } from "../eventlog/append";
import { operatorChannel } from "../contract/socket";
import type { NotificationKind } from "./schemas";
import { serializeNotification, type NotificationRow } from "./serialize";
import { queueNotificationEmail } from "./email-queue";

/**
 * Counts one conversation of a bulk job toward its operator's one notification, in that conversation's own
 * transaction: a conversation the job redoes after a crash is already as asked (no part, nothing counted), so the
 * count stays exact across resumes.
 */
export function countBulkNotice(
  tx: Queryable,
  bulkJobId: bigint,
  d: { adminId: bigint; kind: NotificationKind; conversationId: bigint; actorId: bigint | null },
) {
  return tx.$executeRaw`
    INSERT INTO bulk_job_notices (bulk_job_id, admin_id, kind, count, conversation_id, actor_id)
    VALUES (${bulkJobId}, ${d.adminId}, ${d.kind}, 1, ${d.conversationId}, ${d.actorId})
    ON CONFLICT (bulk_job_id, admin_id, kind) DO UPDATE SET count = bulk_job_notices.count + 1`;
}

/**
 * Turns a finished bulk job's counts into one notification per operator, logged for their sockets; run in the
 * transaction that marks the job finished, so a job finished twice (a lost lease) cannot tell twice, and the
 * unique (bulk_job_id, admin_id) index refuses a second one whatever happens. Each is emailed as one email for the
 * job (lib/email/operator-bulk-email.ts), under the operator's switch for its kind, as a single one is.
 */
export async function releaseBulkNotices(tx: Queryable, emit: Emit, bulkJobId: bigint): Promise<number> {
  const rows = await tx.$queryRaw<(NotificationRow & { adminId: bigint })[]>`
    WITH t AS (DELETE FROM bulk_job_notices WHERE bulk_job_id = ${bulkJobId} RETURNING *),
    n AS (
      INSERT INTO notifications (admin_id, app_id, kind, conversation_id, actor_id, excerpt, count, bulk_job_id)
      SELECT t.admin_id, j.app_id, t.kind, t.conversation_id, x.id, '', t.count, t.bulk_job_id
      FROM t JOIN bulk_jobs j ON j.id = t.bulk_job_id
        JOIN admins r ON r.id = t.admin_id
        JOIN conversations c ON c.id = t.conversation_id
        LEFT JOIN admins x ON x.id = t.actor_id
      WHERE t.count > 0
      ON CONFLICT (bulk_job_id, admin_id) DO NOTHING
      RETURNING *
    )
    SELECT n.id, n.admin_id AS "adminId", n.app_id AS "appId", n.kind, n.conversation_id AS "conversationId",
      n.part_id AS "partId", n.actor_id AS "actorId", a.name AS "actorName", n.excerpt, n.created,
      n.read_at AS "readAt", n.count, n.bulk_job_id AS "bulkJobId"
    FROM n LEFT JOIN admins a ON a.id = n.actor_id`;
  for (const row of rows) {
    await queueNotificationEmail(tx, row.appId, row, row.id);
    emit({
      appId: row.appId,
      channel: operatorChannel("notification", row.appId, row.adminId),
      type: "notification",
      payload: serializeNotification(row),
    });
  }
  return rows.length;
}
