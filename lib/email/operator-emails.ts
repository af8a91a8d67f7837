import { sqlOf, type Queryable } from "../db/sql";
import type { JobKind } from "../jobs/runner";
import { wakeJobs } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import { OPERATORS_QUEUE } from "../conversations/email-followups";
import { NOTIFY_EMAIL_QUEUE } from "../notifications/email-queue";
import { loadEmailSettings, type ResolvedEmailSettings } from "./settings";
import { queueEmail, SEND_QUEUE, threadReferences, type EmailDraft } from "./queue";
import { renderHtml, renderText, type EmailBlock } from "./render";
import { replyAddress } from "./tokens";
import { emailBase, threadOf } from "./threads";
import { emailBulkAssigned } from "./operator-bulk-email";

interface Operator {
  id: bigint;
  name: string;
  email: string;
}

interface Conv {
  app_id: bigint;
  read: boolean;
  assignee_id: bigint | null;
  visitor: string;
  accent: string | null;
}

async function conversationOf(db: Queryable, conversationId: bigint): Promise<Conv | undefined> {
  const [c] = await db.$queryRaw<Conv[]>`
    SELECT c.app_id, c.read, c.assignee_id, COALESCE(u.name, u.email, 'A visitor') AS visitor,
      m.accent_color AS accent
    FROM conversations c JOIN users u ON u.id = c.user_id LEFT JOIN messenger_settings m ON m.app_id = c.app_id
    WHERE c.id = ${conversationId}`;
  return c;
}

/**
 * Composes one email to an operator about a conversation, in their thread of it: answering by mail replies to the
 * visitor as that operator (lib/email/targets.ts).
 */
async function emailOperator(
  rt: Runtime,
  tx: Queryable,
  o: { op: Operator; conversationId: bigint; conv: Conv; settings: ResolvedEmailSettings },
  draft: Pick<EmailDraft, "kind" | "partIds"> & { intro: string; blocks: EmailBlock[]; why: string },
) {
  const cfg = rt.config.email;
  const thread = await threadOf(
    tx,
    { appId: o.conv.app_id, conversationId: o.conversationId },
    `admin:${o.op.id}`,
  );
  const content = {
    accent: o.conv.accent ?? "",
    intro: draft.intro,
    blocks: draft.blocks,
    action: { label: "Open in the Inbox", url: `${emailBase(rt)}/inbox?c=${o.conversationId}` },
    footer: [
      `Reply to this email to answer ${o.conv.visitor}: your answer is sent as your reply.`,
      draft.why,
      "Which emails you get: Settings → Email in the panel.",
    ],
  };
  await queueEmail(tx, cfg, {
    appId: o.conv.app_id,
    conversationId: o.conversationId,
    kind: draft.kind,
    adminId: o.op.id,
    to: { address: o.op.email, name: o.op.name },
    from: { address: o.settings.address, name: o.settings.senderName },
    replyTo: replyAddress(thread.token, cfg.domain),
    references: await threadReferences(tx, o.conversationId, o.op.id),
    subject: `[${o.settings.senderName}] Conversation with ${o.conv.visitor}`,
    text: renderText(content),
    html: renderHtml(content),
    partIds: draft.partIds,
  });
  return thread;
}

/** The visitor's messages an operator has neither read in the Inbox nor been emailed. */
function unreadMessages(tx: Queryable, conversationId: bigint, after: bigint) {
  return tx.$queryRaw<{ id: bigint; body: string }[]>`
    SELECT id, body FROM conversation_parts
    WHERE conversation_id = ${conversationId} AND type = 'reply_user' AND read = false AND id > ${after}
    ORDER BY id`;
}

/**
 * A visitor's message no operator read within the app's delay: its assignee is emailed, or every operator of the
 * app while it is unassigned, each who has not turned these emails off.
 */
export async function emailUnread(rt: Runtime, conversationId: bigint): Promise<number> {
  const db = sqlOf(rt.db);
  const conv = await conversationOf(db, conversationId);
  if (!conv || conv.read) return 0;
  const settings = await loadEmailSettings(rt.db, rt.config.email, conv.app_id);
  if (!settings.operatorEmails) return 0;
  const ops = await db.$queryRaw<Operator[]>`
    SELECT a.id, a.name, a.email FROM app_admins m JOIN admins a ON a.id = m.admin_id
    WHERE m.app_id = ${conv.app_id} AND a.email_on_unread
      AND (${conv.assignee_id}::bigint IS NULL OR a.id = ${conv.assignee_id}::bigint)
    ORDER BY a.id`;
  let sent = 0;
  for (const op of ops) {
    sent += await db.transaction(async (tx) => {
      await tx.$executeRaw`SELECT id FROM conversations WHERE id = ${conversationId} FOR UPDATE`;
      const current = await threadOf(tx, { appId: conv.app_id, conversationId }, `admin:${op.id}`);
      const parts = await unreadMessages(tx, conversationId, current.lastPartId);
      if (!parts.length) return 0;
      const thread = await emailOperator(
        rt,
        tx,
        { op, conversationId, conv, settings },
        {
          kind: "operator_unread",
          partIds: parts.map((p) => p.id),
          intro: `${conv.visitor} wrote to ${settings.senderName}, and no one has read it yet.`,
          blocks: parts.map((p) => ({ author: conv.visitor, text: p.body })),
          why: conv.assignee_id
            ? "You get this email because the conversation is assigned to you."
            : "You get this email because the conversation is not assigned to anyone.",
        },
      );
      await tx.$executeRaw`UPDATE email_threads SET last_part_id = ${parts.at(-1)!.id} WHERE id = ${thread.id}`;
      return 1;
    });
  }
  if (sent) wakeJobs(rt, SEND_QUEUE);
  return sent;
}

/** A mention or an assignment (a notification, a bulk job's included), emailed to its operator at once. */
export async function emailNotification(rt: Runtime, notificationId: bigint): Promise<boolean> {
  const db = sqlOf(rt.db);
  const [n] = await db.$queryRaw<
    {
      kind: string;
      conversation_id: bigint;
      part_id: bigint;
      excerpt: string;
      count: number;
      bulk_job_id: bigint | null;
      actor: string | null;
      id: bigint;
      name: string;
      email: string;
    }[]
  >`
    SELECT n.kind, n.conversation_id, n.part_id, n.excerpt, n.count, n.bulk_job_id, x.name AS actor, a.id, a.name,
      a.email
    FROM notifications n JOIN admins a ON a.id = n.admin_id LEFT JOIN admins x ON x.id = n.actor_id
    WHERE n.id = ${notificationId}`;
  if (!n) return false;
  const conv = await conversationOf(db, n.conversation_id);
  if (!conv) return false;
  const settings = await loadEmailSettings(rt.db, rt.config.email, conv.app_id);
  if (!settings.operatorEmails) return false;
  const op = { id: n.id, name: n.name, email: n.email };
  const mention = n.kind === "mention";
  // A bulk job's notification stands for all it assigned: one email for them, in no conversation's thread. Only
  // an operator or a token runs one, so without an operator it was an integration, not routing.
  const jobId = n.bulk_job_id;
  const by = n.actor ?? (jobId === null ? "Routing" : "An integration");
  if (jobId !== null)
    await db.transaction((tx) =>
      emailBulkAssigned(rt, tx, {
        op,
        appId: conv.app_id,
        accent: conv.accent,
        settings,
        jobId,
        count: n.count,
        by,
      }),
    );
  else
    await db.transaction((tx) =>
      emailOperator(
        rt,
        tx,
        { op, conversationId: n.conversation_id, conv, settings },
        {
          kind: mention ? "operator_mention" : "operator_assigned",
          partIds: [n.part_id],
          intro: mention
            ? `${by} mentioned you in the conversation with ${conv.visitor}.`
            : `${by} assigned you the conversation with ${conv.visitor}.`,
          blocks: n.excerpt ? [{ author: mention ? by : conv.visitor, text: n.excerpt }] : [],
          why: mention
            ? "You get this email because you were mentioned."
            : "You get this email because you were assigned.",
        },
      ),
    );
  wakeJobs(rt, SEND_QUEUE);
  return true;
}

export const operatorsJob: JobKind = {
  name: OPERATORS_QUEUE,
  concurrency: 2,
  background: true,
  run: async (rt, job) => {
    await emailUnread(rt, BigInt((job.payload as { conversation: string }).conversation));
  },
};

export const notifyEmailJob: JobKind = {
  name: NOTIFY_EMAIL_QUEUE,
  concurrency: 2,
  background: true,
  run: async (rt, job) => {
    await emailNotification(rt, BigInt((job.payload as { notification: string }).notification));
  },
};
