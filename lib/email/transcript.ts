import { sqlOf } from "../db/sql";
import type { JobKind } from "../jobs/runner";
import { wakeJobs } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import { TRANSCRIPT_QUEUE } from "../conversations/email-followups";
import { loadEmailSettings } from "./settings";
import { isBouncing, queueEmail, SEND_QUEUE, threadReferences } from "./queue";
import { renderHtml, renderText } from "./render";
import { replyAddress, unsubscribeToken } from "./tokens";
import { emailBase, threadOf } from "./threads";

/** The most messages a transcript shows: the newest, so a long conversation still makes a readable email. */
const MAX_MESSAGES = 200;

/**
 * A closed conversation, emailed to its visitor: every message of both sides, notes never. Its Reply-To is the
 * visitor's thread of the conversation, so an answer reopens it.
 */
export async function sendTranscript(rt: Runtime, conversationId: bigint): Promise<boolean> {
  const cfg = rt.config.email;
  const db = sqlOf(rt.db);
  const [conv] = await db.$queryRaw<
    { app_id: bigint; user_id: bigint; closed: boolean; accent: string | null }[]
  >`
    SELECT c.app_id, c.user_id, c.closed, m.accent_color AS accent
    FROM conversations c LEFT JOIN messenger_settings m ON m.app_id = c.app_id WHERE c.id = ${conversationId}`;
  if (!conv?.closed) return false;
  const settings = await loadEmailSettings(rt.db, cfg, conv.app_id);
  if (!settings.transcripts) return false;
  const unsubscribe = `${emailBase(rt)}/email/unsubscribe?t=${await unsubscribeToken(rt.db, conv.user_id)}`;
  const queued = await db.transaction(async (tx) => {
    const [user] = await tx.$queryRaw<{ email: string | null; name: string | null; email_status: string }[]>`
      SELECT u.email, u.name, u.email_status
      FROM conversations c JOIN users u ON u.id = c.user_id WHERE c.id = ${conversationId} FOR UPDATE OF c`;
    if (!user?.email || user.email_status !== "subscribed") return false;
    if (await isBouncing(tx, conv.app_id, user.email)) return false;
    const parts = await tx.$queryRaw<{ id: bigint; body: string; type: string; author: string | null }[]>`
      SELECT * FROM (
        SELECT p.id, p.body, p.type, a.name AS author FROM conversation_parts p
        LEFT JOIN admins a ON a.id = p.from_admin_id
        WHERE p.conversation_id = ${conversationId} AND p.type IN ('reply_user', 'reply_admin', 'article')
        ORDER BY p.id DESC LIMIT ${MAX_MESSAGES}
      ) t ORDER BY id`;
    if (!parts.length) return false;
    const thread = await threadOf(tx, { appId: conv.app_id, conversationId }, "user");
    const you = user.name ? `${user.name} (you)` : "You";
    const content = {
      accent: conv.accent ?? "",
      intro: `Your conversation with ${settings.senderName} is closed. Here is what was said.`,
      blocks: parts.map((p) => ({
        author: p.type === "reply_user" ? you : (p.author ?? settings.senderName),
        text: p.body,
      })),
      footer: [
        "Reply to this email if there is anything more: it reopens the conversation.",
        `You get this email because you wrote to ${settings.senderName} and left this address.`,
      ],
      unsubscribeUrl: unsubscribe,
    };
    await queueEmail(tx, cfg, {
      appId: conv.app_id,
      conversationId,
      kind: "transcript",
      userId: conv.user_id,
      to: { address: user.email, name: user.name ?? "" },
      from: { address: settings.address, name: settings.senderName },
      replyTo: replyAddress(thread.token, cfg.domain),
      references: await threadReferences(tx, conversationId),
      subject: `Your conversation with ${settings.senderName}`,
      text: renderText(content),
      html: renderHtml(content),
      partIds: parts.map((p) => p.id),
    });
    // What the transcript carried is not emailed again as unread replies.
    await tx.$executeRaw`
      UPDATE email_threads SET last_part_id = GREATEST(last_part_id, ${parts.at(-1)!.id}) WHERE id = ${thread.id}`;
    return cfg.smtpUrl !== undefined;
  });
  if (queued) wakeJobs(rt, SEND_QUEUE);
  return queued;
}

export const transcriptJob: JobKind = {
  name: TRANSCRIPT_QUEUE,
  concurrency: 2,
  run: async (rt, job) => {
    await sendTranscript(rt, BigInt((job.payload as { conversation: string }).conversation));
  },
};
