import { sqlOf, type Queryable } from "../db/sql";
import { attachmentUrls, type AttachmentUrl } from "../attachments/sign";
import { wakeJobs } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import { loadEmailSettings, type ResolvedEmailSettings } from "./settings";
import { isBouncing, queueEmail, SEND_QUEUE, threadReferences, type EmailDraft } from "./queue";
import { renderHtml, renderText, type EmailContent } from "./render";
import { replyAddress, unsubscribeToken } from "./tokens";
import { emailBase, threadOf, type Thread } from "./threads";

/** What an email to a conversation's visitor is made from, read before its transaction. */
export interface VisitorEmailContext {
  rt: Runtime;
  conversationId: bigint;
  appId: bigint;
  userId: bigint;
  accent: string;
  settings: ResolvedEmailSettings;
  base: string;
  /** Attachment links (signed: made before the transaction, as the key may be read from the database). */
  urls: AttachmentUrl;
  unsubscribeUrl: string;
}

/** The email's content and what it carries, composed once the visitor is known reachable and their thread locked. */
export interface VisitorEmail {
  kind: EmailDraft["kind"];
  fromName: string;
  content: Omit<EmailContent, "accent" | "unsubscribeUrl">;
  partIds: bigint[];
}

/**
 * The frame of every email to a visitor (continuity, transcript): the conversation and the app's settings read
 * first (on the embedded database a second connection would wait for the transaction), then, in one transaction
 * with the conversation locked, the visitor checked reachable (an address, subscribed, not bouncing), the email
 * composed in their thread, queued, and the thread moved past what it carries. False: nothing was queued to send.
 */
export async function emailVisitor(
  rt: Runtime,
  conversationId: bigint,
  wanted: (s: ResolvedEmailSettings) => boolean,
  compose: (tx: Queryable, c: VisitorEmailContext, thread: Thread) => Promise<VisitorEmail | undefined>,
): Promise<boolean> {
  const cfg = rt.config.email;
  const db = sqlOf(rt.db);
  const [conv] = await db.$queryRaw<{ app_id: bigint; user_id: bigint; accent: string | null }[]>`
    SELECT c.app_id, c.user_id, m.accent_color AS accent
    FROM conversations c LEFT JOIN messenger_settings m ON m.app_id = c.app_id WHERE c.id = ${conversationId}`;
  if (!conv) return false;
  const settings = await loadEmailSettings(rt.db, cfg, conv.app_id);
  if (!wanted(settings)) return false;
  const base = emailBase(rt);
  const c: VisitorEmailContext = {
    rt,
    conversationId,
    appId: conv.app_id,
    userId: conv.user_id,
    accent: conv.accent ?? "",
    settings,
    base,
    urls: await attachmentUrls(rt.db, base),
    unsubscribeUrl: `${base}/email/unsubscribe?t=${await unsubscribeToken(rt.db, conv.user_id)}`,
  };
  const queued = await db.transaction(async (tx) => {
    const [user] = await tx.$queryRaw<{ email: string | null; name: string | null; email_status: string }[]>`
      SELECT u.email, u.name, u.email_status
      FROM conversations c JOIN users u ON u.id = c.user_id WHERE c.id = ${conversationId} FOR UPDATE OF c`;
    if (!user?.email || user.email_status !== "subscribed") return false;
    if (await isBouncing(tx, conv.app_id, user.email)) return false;
    const thread = await threadOf(tx, { appId: conv.app_id, conversationId }, "user");
    const email = await compose(tx, c, thread);
    if (!email) return false;
    const content = { ...email.content, accent: c.accent, unsubscribeUrl: c.unsubscribeUrl };
    await queueEmail(tx, cfg, {
      appId: conv.app_id,
      conversationId,
      kind: email.kind,
      userId: conv.user_id,
      to: { address: user.email, name: user.name ?? "" },
      from: { address: settings.address, name: email.fromName },
      replyTo: replyAddress(thread.token, cfg.domain),
      references: await threadReferences(tx, conversationId),
      subject: `Your conversation with ${settings.senderName}`,
      text: renderText(content),
      html: renderHtml(content),
      partIds: email.partIds,
    });
    // What this email carried is not emailed again as unread replies.
    const last = email.partIds.reduce((m, id) => (id > m ? id : m), 0n);
    await tx.$executeRaw`
      UPDATE email_threads SET last_part_id = GREATEST(last_part_id, ${last}) WHERE id = ${thread.id}`;
    return cfg.smtpUrl !== undefined;
  });
  if (queued) wakeJobs(rt, SEND_QUEUE);
  return queued;
}
