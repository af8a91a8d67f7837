import type { Queryable } from "../db/sql";
import { enqueueJob } from "../jobs/store";
import type { EmailConfig } from "../config/env";
import { newMessageId } from "./tokens";
import type { EMAIL_KINDS } from "./schemas";

export const SEND_QUEUE = "email.send";

export interface EmailDraft {
  appId: bigint;
  conversationId: bigint | null;
  kind: (typeof EMAIL_KINDS)[number];
  userId?: bigint;
  adminId?: bigint;
  to: { address: string; name: string };
  from: { address: string; name: string };
  replyTo: string | null;
  /** Message-IDs this one answers, oldest first: the last is its In-Reply-To. */
  references: string[];
  subject: string;
  text: string;
  html: string;
  partIds: bigint[];
}

/**
 * The Message-IDs of one recipient's thread of a conversation, oldest first: a new email's References. The
 * visitor's thread holds their answers too; an operator's, only the emails sent to them.
 */
export async function threadReferences(
  tx: Queryable,
  conversationId: bigint,
  adminId: bigint | null = null,
  limit = 20,
): Promise<string[]> {
  const rows = await tx.$queryRaw<{ message_id: string }[]>`
    SELECT message_id FROM (
      SELECT message_id, created FROM emails
      WHERE conversation_id = ${conversationId} AND admin_id IS NOT DISTINCT FROM ${adminId}::bigint
      UNION ALL
      SELECT message_id, created FROM inbound_emails
      WHERE conversation_id = ${conversationId} AND ${adminId}::bigint IS NULL AND message_id IS NOT NULL
        AND outcome IN ('appended', 'started')
      ORDER BY created DESC LIMIT ${limit}
    ) r ORDER BY created`;
  return rows.map((r) => r.message_id);
}

/** Whether a hard bounce came back from this address: nothing is sent to it. */
export async function isBouncing(tx: Queryable, appId: bigint, address: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM email_bounces WHERE app_id = ${appId} AND address = ${address.toLowerCase()}`;
  return rows.length > 0;
}

/**
 * Stores an email and, in the same transaction, its send job (keyed by the email, so it is queued once). Without
 * an SMTP server it is stored as not sent, for Settings → Email to show. The caller wakes SEND_QUEUE after commit.
 */
export async function queueEmail(tx: Queryable, email: EmailConfig, d: EmailDraft): Promise<bigint> {
  const [row] = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT nextval(pg_get_serial_sequence('emails', 'id'))::bigint AS id`;
  const id = BigInt(row!.id);
  const messageId = newMessageId(id, email.domain);
  const sending = email.smtpUrl !== undefined;
  await tx.$executeRaw`
    INSERT INTO emails (id, app_id, conversation_id, kind, user_id, admin_id, to_address, to_name, from_name,
      from_address, reply_to, message_id, in_reply_to, "references", subject, text, html, part_ids, state,
      last_error)
    VALUES (${id}, ${d.appId}, ${d.conversationId}, ${d.kind}, ${d.userId ?? null}, ${d.adminId ?? null},
      ${d.to.address}, ${d.to.name}, ${d.from.name}, ${d.from.address}, ${d.replyTo}, ${messageId},
      ${d.references.at(-1) ?? null}, ${d.references}::text[], ${d.subject}, ${d.text}, ${d.html},
      ${d.partIds}::bigint[], ${sending ? "queued" : "not_sent"},
      ${sending ? null : "no SMTP server configured (SMTP_URL)"})`;
  if (sending) await enqueueJob(tx, { queue: SEND_QUEUE, payload: { email: String(id) } });
  return id;
}
