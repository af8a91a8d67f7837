import type { Tx } from "../db/client";
import type { Runtime } from "../server/runtime";
import { isBouncing, queueEmail } from "../email/queue";
import { renderHtml, renderText } from "../email/render";
import { loadEmailSettings, type ResolvedEmailSettings } from "../email/settings";
import { emailBase } from "../email/threads";
import { unsubscribeToken } from "../email/tokens";
import type { MessageSpec } from "./spec";

/** What an email message needs from outside its send's transaction (on the embedded database, one at a time). */
export interface MessageEmailFrame {
  settings: ResolvedEmailSettings;
  unsubscribeUrl: string;
}

export async function messageEmailFrame(
  rt: Runtime,
  m: MessageSpec,
  userId: bigint,
  sendId: bigint,
): Promise<MessageEmailFrame> {
  const settings = await loadEmailSettings(rt.db, rt.config.email, m.appId);
  const token = await unsubscribeToken(rt.db, userId);
  // `s`: an unsubscribe through this link is this send's `$message_unsubscribed` (lib/messages/unsubscribe.ts).
  return { settings, unsubscribeUrl: `${emailBase(rt)}/email/unsubscribe?t=${token}&s=${sendId}` };
}

/**
 * Queues an email message to its user, in the send's transaction: only to a subscribed address that does not
 * bounce. "sending" when an SMTP server will send it, "stored" when none is configured (Settings → Email shows it
 * as not sent), false when the user cannot be emailed.
 */
export async function emailMessage(
  rt: Runtime,
  tx: Tx,
  frame: MessageEmailFrame,
  m: MessageSpec,
  userId: bigint,
): Promise<"sending" | "stored" | false> {
  const [user] = await tx.$queryRaw<{ email: string | null; name: string | null; email_status: string }[]>`
    SELECT email, name, email_status FROM users WHERE id = ${userId}`;
  if (!user?.email || user.email_status !== "subscribed") return false;
  if (await isBouncing(tx, m.appId, user.email)) return false;
  const c = m.content as { subject: string; body: string; sender?: number };
  const sender = c.sender
    ? await tx.admin.findUnique({ where: { id: BigInt(c.sender) }, select: { name: true } })
    : null;
  const from = frame.settings.senderName;
  const content = {
    accent: "",
    intro: "",
    blocks: [{ author: sender?.name ?? from, text: c.body, attachments: [] }],
    footer: [`You get this email from ${from}.`],
    unsubscribeUrl: frame.unsubscribeUrl,
  };
  await queueEmail(tx, rt.config.email, {
    appId: m.appId,
    conversationId: null,
    kind: "message",
    userId,
    to: { address: user.email, name: user.name ?? "" },
    from: { address: frame.settings.address, name: sender ? `${sender.name} (${from})` : from },
    replyTo: null,
    references: [],
    subject: c.subject,
    text: renderText(content),
    html: renderHtml(content),
    partIds: [],
  });
  return rt.config.email.smtpUrl ? "sending" : "stored";
}
