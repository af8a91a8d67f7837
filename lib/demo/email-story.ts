import type { Ctx } from "../auth/context";
import type { Runtime } from "../server/runtime";
import { startConversation } from "../conversations/start";
import { replyToConversation } from "../conversations/reply";
import { sendContinuity } from "../email/continuity";
import { receiveEmail } from "../email/receive";

const VISITOR = { name: "Lena Fischer", email: "lena.fischer@example.com" };

/**
 * The email channel in the demo, through the real services: a visitor asks and leaves, an operator answers, the
 * answer is emailed (stored as not sent: the demo has no SMTP server), and the visitor's answer by mail comes back
 * into the conversation. Only without SMTP_URL, so that no demo address is ever really written to.
 */
export async function seedEmailStory(rt: Runtime, appId: bigint, adminId: bigint): Promise<void> {
  if (rt.config.email.smtpUrl) return;
  const user = await rt.db.user.create({
    data: { appId, name: VISITOR.name, email: VISITOR.email, lastSeen: new Date(Date.now() - 3600_000) },
  });
  const base = { db: rt.db, appId, requestId: "demo" };
  const visitor: Ctx = {
    ...base,
    actor: { kind: "visitor", appId, userId: user.id, family: "", viaJwt: true },
  };
  const operator: Ctx = { ...base, actor: { kind: "admin", adminId, sessionId: 0n, appIds: [appId] } };
  const started = await startConversation(visitor, {
    user: { id: String(user.id), byUserId: false },
    body: "Hi! Do you ship to Austria? I have to run, please answer by email.",
    referrer: "https://shop.example.com/checkout",
  });
  await replyToConversation(operator, {
    conversationId: started.conversationId,
    body: "Hi Lena, yes: Austria takes 3 to 5 working days, and shipping is free from €50.",
  });
  await sendContinuity(rt, started.conversationId);
  const email = await rt.db.email.findFirstOrThrow({
    where: { conversationId: started.conversationId },
    select: { replyTo: true, messageId: true, subject: true, toAddress: true },
  });
  const answer = [
    `From: ${VISITOR.name} <${VISITOR.email}>`,
    `To: ${email.replyTo}`,
    `Subject: Re: ${email.subject}`,
    `Message-ID: <demo-answer.${started.conversationId}@example.com>`,
    `In-Reply-To: ${email.messageId}`,
    `References: ${email.messageId}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Great, thank you! I will order tonight.",
    "",
    `On ${new Date().toUTCString()}, Dana Demo wrote:`,
    "> Hi Lena, yes: Austria takes 3 to 5 working days, and shipping is free from €50.",
    "",
  ].join("\r\n");
  await receiveEmail(rt, Buffer.from(answer, "utf8"));
}
