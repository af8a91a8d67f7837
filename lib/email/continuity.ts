import { sqlOf, type Queryable } from "../db/sql";
import type { JobKind } from "../jobs/runner";
import { wakeJobs } from "../jobs/runner";
import { attachmentUrls } from "../attachments/sign";
import type { Runtime } from "../server/runtime";
import { loadEmailSettings } from "./settings";
import { isBouncing, queueEmail, SEND_QUEUE, threadReferences } from "./queue";
import { renderHtml, renderText, type EmailBlock } from "./render";
import { replyAddress, unsubscribeToken } from "./tokens";
import { emailBase, threadOf } from "./threads";

import { CONTINUITY_QUEUE } from "../conversations/email-followups";

interface UnreadPart {
  id: bigint;
  body: string;
  author: string | null;
}

/**
 * Operators' replies the visitor has neither read nor been emailed, oldest first. A reply read in the messenger
 * is never emailed; one emailed is never emailed again (the thread's last part).
 */
function unreadReplies(tx: Queryable, conversationId: bigint, after: bigint) {
  return tx.$queryRaw<UnreadPart[]>`
    SELECT p.id, p.body, a.name AS author FROM conversation_parts p LEFT JOIN admins a ON a.id = p.from_admin_id
    WHERE p.conversation_id = ${conversationId} AND p.direction = 'a2u' AND p.read = false
      AND p.type IN ('reply_admin', 'article') AND p.id > ${after}
    ORDER BY p.id`;
}

async function attachmentsOf(tx: Queryable, partIds: bigint[]) {
  return tx.$queryRaw<{ id: bigint; part_id: bigint; filename: string }[]>`
    SELECT id, part_id, filename FROM attachments WHERE part_id = ANY(${partIds}::bigint[]) ORDER BY id`;
}

/** The page the visitor wrote from, to open the conversation in the messenger again. */
async function conversationPage(tx: Queryable, conversationId: bigint): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ referrer: string }[]>`
    SELECT referrer FROM conversation_parts
    WHERE conversation_id = ${conversationId} AND referrer ~ '^https?://' ORDER BY id DESC LIMIT 1`;
  if (!row) return undefined;
  const url = new URL(row.referrer);
  url.hash = `relay-conversation=${conversationId}`;
  return url.toString();
}

/**
 * Emails a visitor the replies they have not read, one email for all of them: queued (per conversation, see
 * lib/conversations/email-followups.ts) when an operator replies, run once the app's delay has passed.
 */
export async function sendContinuity(rt: Runtime, conversationId: bigint): Promise<boolean> {
  const cfg = rt.config.email;
  const db = sqlOf(rt.db);
  const [conv] = await db.$queryRaw<{ app_id: bigint; user_id: bigint; accent: string | null }[]>`
    SELECT c.app_id, c.user_id, m.accent_color AS accent
    FROM conversations c LEFT JOIN messenger_settings m ON m.app_id = c.app_id WHERE c.id = ${conversationId}`;
  if (!conv) return false;
  // Read before the transaction: on the embedded database a second connection would wait for it to end.
  const settings = await loadEmailSettings(rt.db, cfg, conv.app_id);
  if (!settings.continuity) return false;
  const base = emailBase(rt);
  const urls = await attachmentUrls(rt.db, base);
  const unsubscribe = `${base}/email/unsubscribe?t=${await unsubscribeToken(rt.db, conv.user_id)}`;
  const queued = await db.transaction(async (tx) => {
    const [user] = await tx.$queryRaw<{ email: string | null; name: string | null; email_status: string }[]>`
      SELECT u.email, u.name, u.email_status
      FROM conversations c JOIN users u ON u.id = c.user_id WHERE c.id = ${conversationId} FOR UPDATE OF c`;
    if (!user?.email || user.email_status !== "subscribed") return false;
    if (await isBouncing(tx, conv.app_id, user.email)) return false;
    const thread = await threadOf(tx, { appId: conv.app_id, conversationId }, "user");
    const parts = await unreadReplies(tx, conversationId, thread.lastPartId);
    if (!parts.length) return false;
    const files = await attachmentsOf(
      tx,
      parts.map((p) => p.id),
    );
    const blocks: EmailBlock[] = parts.map((p) => ({
      author: p.author ?? settings.senderName,
      text: p.body,
      attachments: files
        .filter((f) => f.part_id === p.id)
        .map((f) => ({ name: f.filename, url: urls(f.id) })),
    }));
    const operator = parts.at(-1)!.author;
    const page = await conversationPage(tx, conversationId);
    const content = {
      accent: conv.accent ?? "",
      intro:
        parts.length === 1
          ? `${operator ?? settings.senderName} replied to your conversation with ${settings.senderName}.`
          : `You have ${parts.length} new replies in your conversation with ${settings.senderName}.`,
      blocks,
      action: page ? { label: "Open the conversation", url: page } : undefined,
      footer: [
        "Reply to this email to answer: your answer goes to the same conversation.",
        `You get this email because you wrote to ${settings.senderName} and left this address.`,
      ],
      unsubscribeUrl: unsubscribe,
    };
    await queueEmail(tx, cfg, {
      appId: conv.app_id,
      conversationId,
      kind: "continuity",
      userId: conv.user_id,
      to: { address: user.email, name: user.name ?? "" },
      from: {
        address: settings.address,
        name: operator ? `${operator} (${settings.senderName})` : settings.senderName,
      },
      replyTo: replyAddress(thread.token, cfg.domain),
      references: await threadReferences(tx, conversationId),
      subject: `Your conversation with ${settings.senderName}`,
      text: renderText(content),
      html: renderHtml(content),
      partIds: parts.map((p) => p.id),
    });
    await tx.$executeRaw`UPDATE email_threads SET last_part_id = ${parts.at(-1)!.id} WHERE id = ${thread.id}`;
    return cfg.smtpUrl !== undefined;
  });
  if (queued) wakeJobs(rt, SEND_QUEUE);
  return queued;
}

export const continuityJob: JobKind = {
  name: CONTINUITY_QUEUE,
  concurrency: 2,
  run: async (rt, job) => {
    const { conversation } = job.payload as { conversation: string };
    await sendContinuity(rt, BigInt(conversation));
  },
};
