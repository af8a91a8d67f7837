import type { Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withEvents, type Emit } from "../eventlog/append";
import { recordEvent } from "../events/track-event";
import { enqueueJob } from "../jobs/store";
import { wakeJobs, type JobKind } from "../jobs/runner";
import { userMatches } from "../leads/user-matches";
import type { Runtime } from "../server/runtime";
import { nextSendTime } from "./schedule";
import { stillThere } from "./stay";
import { specOf, type MessageSpec } from "./spec";
import { countMessageEvent } from "./stats";
import { emailMessage, messageEmailFrame, type MessageEmailFrame } from "./email";
import { messageEventName } from "./schemas";
import type { VisitorMessage } from "../messenger/visitor-schemas";
import { attachmentUrls, publicBase, type AttachmentUrl } from "../attachments/sign";
import { activeBot } from "../bots/start";
import { openBotConversation } from "../conversations/start-bot";

export const MESSAGE_SEND_QUEUE = "messages.send";

/** A send as its services lock and record it. */
export interface SendRow {
  id: bigint;
  message_id: bigint;
  app_id: bigint;
  user_id: bigint;
  control: boolean;
  state: string;
  created: Date;
}

/** Why a send did not go out, as stored in `reason`. */
type Skip = "paused" | "archived" | "audience" | "left" | "rate_limit" | "no_email" | "user_gone" | "bot_off";

const skip = (tx: Tx, id: bigint, reason: Skip) =>
  tx.$executeRaw`UPDATE message_sends SET state = 'skipped', reason = ${reason} WHERE id = ${id}`;

/** What the messenger shows, kept in the `$message_sent` event's props (the event tells the messenger). */
export async function visitorContent(
  tx: Pick<Tx, "admin">,
  m: MessageSpec,
  sendId: bigint,
  at: Date,
): Promise<VisitorMessage> {
  const c = m.content;
  const senderId = typeof c.sender === "number" ? BigInt(c.sender) : undefined;
  const admin = senderId
    ? await tx.admin.findUnique({ where: { id: senderId }, select: { id: true, name: true, avatar: true } })
    : null;
  const button = c.button as { label: string; action: "link" | "reply"; url?: string } | undefined;
  return {
    send: Number(sendId),
    message: Number(m.id),
    kind: m.kind === "popup" ? "popup" : "chat",
    created: Math.floor(at.getTime() / 1000),
    sender: admin && { ...admin, id: Number(admin.id) },
    title: typeof c.title === "string" ? c.title : null,
    body: typeof c.body === "string" ? c.body : "",
    button: button ? { label: button.label, action: button.action, url: button.url ?? null } : null,
    email_field: c.email_field === true,
  };
}

/** A sent send of `userId` whose message is of one of `kinds`, locked; undefined when there is none. */
export async function lockedSend(
  tx: Tx,
  userId: bigint,
  sendId: bigint,
  kinds: readonly string[],
): Promise<SendRow | undefined> {
  const [s] = await tx.$queryRaw<SendRow[]>`
    SELECT s.id, s.message_id, s.app_id, s.user_id, s.control, s.state, s.created
    FROM message_sends s JOIN auto_messages m ON m.id = s.message_id
    WHERE s.id = ${sendId} AND s.user_id = ${userId} AND s.state = 'sent' AND m.kind IN (${Prisma.join(kinds)})
    FOR UPDATE OF s`;
  return s;
}

/**
 * Records a message event of a send (sent, read, …) once: the send's moment set, the count kept, and the user event
 * `$message_<kind>` written with `{message, send}` (chains trigger on it, Leads filter on it, webhooks carry it),
 * all in the caller's transaction. False when it was recorded before.
 */
export async function recordMessageEvent(
  tx: Tx,
  emit: Emit,
  e: {
    send: SendRow;
    kind: "sent" | "read" | "clicked" | "replied" | "unsubscribed";
    at: Date;
    extra?: object;
  },
): Promise<boolean> {
  const column = Prisma.raw(`${e.kind}_at`);
  const n = await tx.$executeRaw(Prisma.sql`
    UPDATE message_sends SET ${column} = ${e.at} WHERE id = ${e.send.id} AND ${column} IS NULL`);
  if (n === 0) return false;
  await countMessageEvent(tx, { messageId: e.send.message_id, control: false, kind: e.kind, at: e.at });
  await recordEvent(tx, emit, {
    appId: e.send.app_id,
    userId: e.send.user_id,
    name: messageEventName(e.kind),
    created: e.at,
    props: { ...e.extra, message: Number(e.send.message_id), send: Number(e.send.id) },
  });
  return true;
}

/**
 * A scheduled send, when it comes due: the message still active, the user still in its audience (checked now, not
 * at the trigger) and where its trigger asks them to stay, within its schedule (else moved to the next time it
 * allows), at most one message per user per the app's interval; then held back (the control group) or sent: a bot
 * message opens the conversation its bot runs (skipped when the bot is no longer active). One transaction, the user's row locked so that
 * two sends to one user decide one after the other.
 */
export async function fireSend(rt: Runtime, sendId: bigint): Promise<void> {
  let later: Date | undefined;
  let emailed = false;
  // An email's settings are read before the transaction (the embedded database serves one connection at a time).
  const [peek] = await rt.db.$queryRaw<{ kind: string; user_id: bigint }[]>`
    SELECT m.kind, s.user_id FROM message_sends s JOIN auto_messages m ON m.id = s.message_id
    WHERE s.id = ${sendId} AND s.state = 'scheduled'`;
  if (!peek) return;
  let frame: MessageEmailFrame | undefined;
  if (peek.kind === "email") {
    const row = await rt.db.autoMessage.findFirst({
      where: { sends: { some: { id: sendId } } },
    });
    if (row) frame = await messageEmailFrame(rt, specOf(row), peek.user_id, sendId);
  }
  const urls: AttachmentUrl | undefined =
    peek.kind === "bot" ? await attachmentUrls(rt.db, publicBase()) : undefined;
  await withEvents(rt.db, async (tx, emit) => {
    const [send] = await tx.$queryRaw<SendRow[]>`
      SELECT id, message_id, app_id, user_id, control, state, created FROM message_sends
      WHERE id = ${sendId} FOR UPDATE`;
    if (!send || send.state !== "scheduled") return;
    const user = await tx.$queryRaw<
      { id: bigint }[]
    >`SELECT id FROM users WHERE id = ${send.user_id} FOR UPDATE`;
    if (!user.length) return skip(tx, send.id, "user_gone");
    const row = await tx.autoMessage.findUnique({ where: { id: send.message_id } });
    if (!row) return;
    const m = specOf(row);
    if (m.status !== "active") return skip(tx, send.id, m.status === "paused" ? "paused" : "archived");
    const app = await tx.app.findUniqueOrThrow({
      where: { id: m.appId },
      select: { timeZone: true, officeHours: true, messageIntervalSeconds: true },
    });
    const now = new Date();
    const next = nextSendTime(m.schedule, app, now);
    if (next.getTime() > now.getTime()) {
      later = next;
      await tx.$executeRaw`UPDATE message_sends SET due_at = ${next} WHERE id = ${send.id}`;
      await enqueueJob(tx, { queue: MESSAGE_SEND_QUEUE, payload: { send: String(send.id) }, runAt: next });
      return;
    }
    if (!(await userMatches(tx, { appId: m.appId, userId: send.user_id, filters: m.audience })))
      return skip(tx, send.id, "audience");
    if (m.trigger.stay && !(await stillThere(tx, send.id, m.trigger.stay, now)))
      return skip(tx, send.id, "left");
    const recent = await tx.$queryRaw<{ one: number }[]>`
      SELECT 1 AS one FROM message_sends
      WHERE user_id = ${send.user_id} AND sent_at > ${now}::timestamptz - ${app.messageIntervalSeconds} * INTERVAL '1 second'
      LIMIT 1`;
    if (recent.length) return skip(tx, send.id, "rate_limit");
    if (send.control) {
      await tx.$executeRaw`UPDATE message_sends SET state = 'held' WHERE id = ${send.id}`;
      await countMessageEvent(tx, { messageId: m.id, control: true, kind: "sent", at: now });
      return;
    }
    if (m.kind === "email") {
      // It became an email since the look before the transaction: the job's retry reads the frame.
      if (!frame) throw new Error(`message ${m.id} changed its kind while send ${send.id} was firing`);
      const queued = await emailMessage(rt, tx, frame, m, send.user_id);
      if (!queued) return skip(tx, send.id, "no_email");
      emailed = queued === "sending";
    }
    let extra: object;
    if (m.kind === "bot") {
      const bot = await activeBot(tx, { appId: m.appId, botId: BigInt(String(m.content.bot)) });
      if (!bot) return skip(tx, send.id, "bot_off");
      if (!urls) throw new Error(`message ${m.id} changed its kind while send ${send.id} was firing`);
      const conversation = await openBotConversation(tx, emit, urls, {
        appId: m.appId,
        userId: send.user_id,
        messageId: m.id,
        bot,
      });
      await tx.$executeRaw`UPDATE message_sends SET conversation_id = ${conversation} WHERE id = ${send.id}`;
      extra = { kind: "bot", conversation: Number(conversation) };
    } else extra = m.kind === "email" ? { kind: "email" } : await visitorContent(tx, m, send.id, now);
    await tx.$executeRaw`UPDATE message_sends SET state = 'sent' WHERE id = ${send.id}`;
    await recordMessageEvent(tx, emit, { send, kind: "sent", at: now, extra });
  });
  if (later) wakeJobs(rt, MESSAGE_SEND_QUEUE);
  if (emailed) wakeJobs(rt, "email.send");
}

export const messageSendJob: JobKind = {
  name: MESSAGE_SEND_QUEUE,
  concurrency: 4,
  run: async (rt, job) => {
    const { send } = job.payload as { send: string };
    await fireSend(rt, BigInt(send));
  },
};
