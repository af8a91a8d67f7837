import type { Queryable } from "../db/sql";
import type { Emit } from "../eventlog/append";
import { operatorChannel } from "../contract/socket";
import { findMentions, type Mentionable } from "./mentions";
import { countBulkNotice } from "./bulk";
import { queueNotificationEmail } from "./email-queue";
import type { NotificationKind } from "./schemas";
import { serializeNotification, type NotificationRow } from "./serialize";

/** What of a new part decides who is told (lib/parts CreatedPart has these). */
export interface NotifiedPart {
  id: bigint;
  type: string;
  body: string;
  fromAdminId: bigint | null;
  assigneeId: bigint | null;
}

const EXCERPT = 200;

interface Draft {
  adminId: bigint;
  kind: NotificationKind;
  partId: bigint;
  actorId: bigint | null;
  excerpt: string;
}

async function operatorsOf(tx: Queryable, appId: bigint): Promise<Mentionable[]> {
  return tx.$queryRaw<Mentionable[]>`
    SELECT a.id, a.name, a.email FROM app_admins m JOIN admins a ON a.id = m.admin_id WHERE m.app_id = ${appId}`;
}

/**
 * Notifications for the parts a transaction just wrote, written and logged in that transaction: a note's
 * `@mentions`, an assignment to someone other than its author, and a visitor's reply to the assignee. Nobody is
 * told of their own act. Mentions and assignments are also emailed (queued here, sent by lib/email). Inside a bulk
 * job (`bulkJob`) assignments are only counted: the job's end tells each operator once (./bulk.ts).
 */
export async function notifyParts(
  tx: Queryable,
  emit: Emit,
  conv: { id: bigint; appId: bigint; assigneeId: bigint | null },
  parts: readonly NotifiedPart[],
  opts: { bulkJob?: bigint } = {},
): Promise<void> {
  const drafts: Draft[] = [];
  let operators: Mentionable[] | undefined;
  // A first message routed to its assignee comes with the assignment: that one notification tells them of both.
  const assignedHere = (adminId: bigint) =>
    drafts.some((d) => d.kind === "assigned" && d.adminId === adminId);
  for (const p of parts) {
    const excerpt = p.body.slice(0, EXCERPT);
    const base = { partId: p.id, actorId: p.fromAdminId, excerpt };
    if (p.type === "note" && p.body.includes("@")) {
      operators ??= await operatorsOf(tx, conv.appId);
      for (const adminId of findMentions(p.body, operators)) {
        if (adminId !== p.fromAdminId) drafts.push({ ...base, adminId, kind: "mention" });
      }
    } else if (p.type === "assigned" && p.assigneeId !== null && p.assigneeId !== p.fromAdminId) {
      drafts.push({ ...base, adminId: p.assigneeId, kind: "assigned" });
    } else if (p.type === "reply_user" && conv.assigneeId !== null && !assignedHere(conv.assigneeId)) {
      drafts.push({ ...base, adminId: conv.assigneeId, kind: "reply", actorId: null });
    }
  }
  for (const d of drafts) {
    // A bulk job's assignments are counted, and told once per operator when the job ends.
    if (opts.bulkJob !== undefined && d.kind === "assigned") {
      await countBulkNotice(tx, opts.bulkJob, { ...d, conversationId: conv.id });
      continue;
    }
    const [row] = await tx.$queryRaw<NotificationRow[]>`
      WITH n AS (
        INSERT INTO notifications (admin_id, app_id, kind, conversation_id, part_id, actor_id, excerpt)
        VALUES (${d.adminId}, ${conv.appId}, ${d.kind}, ${conv.id}, ${d.partId}, ${d.actorId}, ${d.excerpt})
        RETURNING *
      )
      SELECT n.id, n.app_id AS "appId", n.kind, n.conversation_id AS "conversationId", n.part_id AS "partId",
        n.actor_id AS "actorId", a.name AS "actorName", n.excerpt, n.created, n.read_at AS "readAt",
        n.count, n.bulk_job_id AS "bulkJobId"
      FROM n LEFT JOIN admins a ON a.id = n.actor_id`;
    if (!row) continue;
    if (d.kind === "mention" || d.kind === "assigned")
      await queueNotificationEmail(tx, conv.appId, d, row.id);
    emit({
      appId: conv.appId,
      channel: operatorChannel("notification", conv.appId, d.adminId),
      type: "notification",
      payload: serializeNotification(row),
    });
  }
}
