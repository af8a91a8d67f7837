import { visitorOf, type Ctx } from "../auth/context";
import type { Tx } from "../db/client";
import { invalid, lookupFailed } from "../domain/errors";
import { withEvents } from "../eventlog/append";
import { startFromMessage, type Started } from "../conversations/start";
import { identifyVisitor } from "../messenger/identify";
import { lockedSend, recordMessageEvent, visitorContent, type SendRow } from "./send";
import { specOf } from "./spec";
import type { VisitorMessage } from "../messenger/visitor-schemas";

/** The messenger shows a sent message for this long, until the visitor answers or closes it. */
const SHOWN_FOR_MS = 7 * 86_400_000;

/** The visitor's own sent chat message or pop-up, locked; another's is as missing as none. */
async function ownSend(tx: Tx, userId: bigint, sendId: bigint): Promise<SendRow> {
  const s = await lockedSend(tx, userId, sendId, ["chat", "popup"]);
  if (!s) throw lookupFailed(`No message ${sendId} for this visitor.`);
  return s;
}

/** The chat messages and pop-ups sent to the visitor that it has neither answered nor closed, newest first. */
export async function visitorMessages(ctx: Ctx): Promise<VisitorMessage[]> {
  const { userId } = visitorOf(ctx);
  const sends = await ctx.db.messageSend.findMany({
    where: {
      userId,
      state: "sent",
      repliedAt: null,
      clickedAt: null,
      sentAt: { gt: new Date(Date.now() - SHOWN_FOR_MS) },
      message: { kind: { in: ["chat", "popup"] } },
    },
    include: { message: true },
    orderBy: { id: "desc" },
    take: 10,
  });
  const out: VisitorMessage[] = [];
  for (const s of sends) out.push(await visitorContent(ctx.db, specOf(s.message), s.id, s.sentAt!));
  return out;
}

/** The visitor saw it (read) or acted on it (clicked: its link button, or its email field); each is recorded once. */
export async function markVisitorMessage(
  ctx: Ctx,
  input: { sendId: bigint; kind: "read" | "clicked"; email?: string },
): Promise<void> {
  const { userId } = visitorOf(ctx);
  // The address first, through the props service (its own transaction: the lead rule and sources follow it).
  if (input.email !== undefined)
    await identifyVisitor(ctx, { userId, email: input.email, source: "message" });
  await withEvents(ctx.db, async (tx, emit) => {
    const send = await ownSend(tx, userId, input.sendId);
    const at = new Date();
    // A click is a read too: the message was seen.
    if (input.kind === "clicked") await recordMessageEvent(tx, emit, { send, kind: "read", at });
    await recordMessageEvent(tx, emit, { send, kind: input.kind, at });
  });
}

/**
 * The visitor answers a chat message (or a pop-up's reply button): a conversation of type popup_chat whose
 * `message` is the message's ID, with the message as its first part; the answer is recorded as replied (and read).
 */
export async function replyToAutoMessage(
  ctx: Ctx,
  input: { sendId: bigint; body: string; randomId?: number; referrer?: string },
): Promise<Started> {
  const { userId } = visitorOf(ctx);
  const send = await ctx.db.messageSend.findFirst({
    where: { id: input.sendId, userId, state: "sent" },
    include: { message: true },
  });
  if (!send || !["chat", "popup"].includes(send.message.kind))
    throw lookupFailed(`No message ${input.sendId} for this visitor.`);
  if (send.repliedAt) throw invalid({ send: "this message was answered already: reply in its conversation" });
  const m = specOf(send.message);
  const shown = await visitorContent(ctx.db, m, send.id, send.sentAt ?? send.created);
  const started = await startFromMessage(ctx, {
    user: { id: String(userId), byUserId: false },
    body: input.body,
    randomId: input.randomId,
    referrer: input.referrer,
    messageId: m.id,
    sender: shown.sender ? BigInt(shown.sender.id) : null,
    text: shown.title ? `${shown.title}\n\n${shown.body}` : shown.body,
    also: async (tx, emit, conversationId) => {
      const own = await ownSend(tx, userId, send.id);
      const at = new Date();
      await recordMessageEvent(tx, emit, { send: own, kind: "read", at });
      const first = await recordMessageEvent(tx, emit, {
        send: own,
        kind: "replied",
        at,
        extra: { conversation: Number(conversationId) },
      });
      if (!first) throw invalid({ send: "this message was answered already: reply in its conversation" });
      await tx.$executeRaw`UPDATE message_sends SET conversation_id = ${conversationId} WHERE id = ${send.id}`;
    },
  });
  return started;
}
