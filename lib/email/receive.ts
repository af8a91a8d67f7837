import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { isDomainError } from "../domain/errors";
import type { Runtime } from "../server/runtime";
import { replyToConversation } from "../conversations/reply";
import { markConversationRead } from "../conversations/read";
import { startConversation } from "../conversations/start";
import { MalformedEmail, parseInbound, type InboundAttachment, type ParsedEmail } from "./inbound/parse";
import { findTarget, type Target } from "./targets";
import { handleBounce } from "./bounces";
import type { Received } from "./received";
import { isOurMessageId } from "./tokens";
import { MAX_BODY } from "../conversations/reply";
import { MAX_ATTACHMENT_BYTES } from "../attachments/store";

export const MAX_INBOUND_BYTES = 25 * 1024 * 1024;
/** Messages one sender may send in a minute before the next are refused for a while. */
export const SENDER_PER_MINUTE = 20;

const refused = (reason: string, more: Partial<Received> = {}): Received => ({
  outcome: "refused",
  reason,
  appId: null,
  conversationId: null,
  partId: null,
  ...more,
});

/** The text as a part takes it: cut, with a word saying so, past the length a message may have. */
function partText(text: string): string {
  return text.length <= MAX_BODY
    ? text
    : `${text.slice(0, MAX_BODY - 60)}\n\n[The rest of this email was cut.]`;
}

/** Files a part may keep; those over the limit are named in the text instead of refusing the whole message. */
function keptFiles(p: ParsedEmail): { text: string; files: InboundAttachment[] } {
  const files = p.attachments.filter((a) => a.content.length <= MAX_ATTACHMENT_BYTES);
  const dropped = p.attachments.filter((a) => a.content.length > MAX_ATTACHMENT_BYTES).map((a) => a.filename);
  const note = dropped.length
    ? `\n\n[Not kept, over ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB: ${dropped.join(", ")}]`
    : "";
  return { text: partText(p.text + note), files };
}

function asFile(a: InboundAttachment): File {
  return new File([new Uint8Array(a.content)], a.filename, { type: a.contentType });
}

/** Who the message acts as: the visitor answering, or the operator answering by mail. */
function actorCtx(rt: Runtime, target: Target, userId: bigint): Ctx {
  const appId = target.appId;
  const actor: Ctx["actor"] =
    target.adminId !== undefined
      ? { kind: "admin", adminId: target.adminId, sessionId: 0n, appIds: [appId] }
      : { kind: "visitor", appId, userId, family: "", viaJwt: true };
  return { db: rt.db, actor, appId, requestId: "email", via: "email" };
}

/**
 * The words and files of a message as parts: the text with the first file, then a part per further file. Each
 * carries `email:<Message-ID>[:n]` as its external_id, so a message delivered twice is appended once.
 */
async function append(ctx: Ctx, target: Target, p: ParsedEmail, files: InboundAttachment[]) {
  const conversationId = target.conversationId!;
  const key = `email:${p.messageId ?? `${p.from?.address}:${p.subject}:${p.text.length}`}`.slice(0, 255);
  const fromUser = target.adminId === undefined ? target.userId : undefined;
  const first = await replyToConversation(ctx, {
    conversationId,
    body: p.text,
    fromUser,
    externalId: key,
    ...(files[0] ? { attachment: asFile(files[0]), attachmentFileName: files[0].filename } : {}),
  });
  for (const [i, f] of files.slice(1).entries()) {
    await replyToConversation(ctx, {
      conversationId,
      fromUser,
      externalId: `${key}:${i + 1}`.slice(0, 255),
      attachment: asFile(f),
      attachmentFileName: f.filename,
    });
  }
  // An answer tells that the visitor read what they answer.
  if (fromUser !== undefined) await markConversationRead(ctx, { conversationId, fromUser });
  return first.part.id;
}

async function start(ctx: Ctx, target: Target, p: ParsedEmail, files: InboundAttachment[]) {
  const body = partText(p.subject ? `${p.subject}\n\n${p.text}`.trim() : p.text);
  const started = await startConversation(ctx, {
    user: { id: String(target.userId), byUserId: false },
    body,
    ...(files[0] ? { file: asFile(files[0]), filename: files[0].filename } : {}),
  });
  const rest = files.slice(1);
  if (rest.length)
    await append(ctx, { ...target, conversationId: started.conversationId }, { ...p, text: "" }, rest);
  return { conversationId: started.conversationId, partId: started.part.id };
}

async function tooMany(rt: Runtime, from: string): Promise<boolean> {
  const [row] = await sqlOf(rt.db).$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM inbound_emails WHERE from_address = ${from} AND created > now() - INTERVAL '1 minute'`;
  return Number(row?.n ?? 0) >= SENDER_PER_MINUTE;
}

async function record(rt: Runtime, p: ParsedEmail | undefined, size: number, r: Received): Promise<void> {
  await sqlOf(rt.db).$executeRaw`
    INSERT INTO inbound_emails (app_id, message_id, from_address, recipients, subject, size, outcome, reason,
      conversation_id, part_id)
    VALUES (${r.appId}, ${p?.messageId ?? null}, ${p?.from?.address ?? ""}, ${p?.recipients ?? []}::text[],
      ${(p?.subject ?? "").slice(0, 500)}, ${size}, ${r.outcome}, ${r.reason}, ${r.conversationId}, ${r.partId})
    ON CONFLICT (app_id, message_id) DO NOTHING`;
  if (r.outcome === "ignored" || r.outcome === "refused")
    (rt.log ?? console.error)(
      `email: ${r.outcome} ${p?.messageId ?? "(no Message-ID)"} from ${p?.from?.address ?? "?"}: ${r.reason}`,
    );
}

async function decide(rt: Runtime, p: ParsedEmail, onlyApp: bigint | undefined): Promise<Received> {
  const domain = rt.config.email.domain;
  if (p.bounce) return handleBounce(rt, p, onlyApp);
  if (p.messageId && isOurMessageId(p.messageId, domain))
    return { ...refused("our own message came back (a mail loop)"), outcome: "ignored" };
  if (p.automatic) return { ...refused(`an automatic message (${p.automatic})`), outcome: "ignored" };
  if (!p.from) return refused("no sender address");
  if (p.from.address.endsWith(`@${domain}`))
    return { ...refused("sent from one of our own addresses (a mail loop)"), outcome: "ignored" };
  if (await tooMany(rt, p.from.address))
    return refused(`more than ${SENDER_PER_MINUTE} messages from this sender in a minute`, {
      temporary: true,
    });
  const found = await findTarget(rt, p);
  if ("refused" in found) return refused(found.refused);
  const target = found;
  if (onlyApp !== undefined && target.appId !== onlyApp) return refused("addressed to another app");
  const base = { appId: target.appId, reason: target.note ?? null };
  if (p.messageId) {
    const [seen] = await sqlOf(rt.db).$queryRaw<{ conversation_id: bigint | null }[]>`
      SELECT conversation_id FROM inbound_emails
      WHERE app_id = ${target.appId} AND message_id = ${p.messageId} AND outcome IN ('appended', 'started')`;
    if (seen)
      return {
        ...base,
        outcome: "ignored",
        reason: "already received",
        conversationId: seen.conversation_id,
        partId: null,
      };
  }
  if (!p.text && !p.attachments.length)
    return { ...refused("the message is empty"), ...base, outcome: "ignored" };
  const ctx = actorCtx(rt, target, target.userId);
  const kept = keptFiles(p);
  const message = { ...p, text: kept.text };
  if (target.conversationId !== undefined) {
    const partId = await append(ctx, target, message, kept.files);
    return { ...base, outcome: "appended", conversationId: target.conversationId, partId };
  }
  const s = await start(ctx, target, message, kept.files);
  return { ...base, outcome: "started", ...s };
}

/**
 * A message that reached one of our addresses (the SMTP listener, the HTTP endpoint, or pasted in Settings): an
 * answer appended to its conversation, a new conversation, a bounce read, or a refusal, every one recorded in
 * `inbound_emails` with why. `onlyApp`: the message may only concern that app (pasted by its operator).
 */
export async function receiveEmail(
  rt: Runtime,
  raw: Buffer,
  opts: { envelope?: { from?: string; to?: string[] }; onlyApp?: bigint } = {},
): Promise<Received> {
  if (raw.length > MAX_INBOUND_BYTES) {
    const r = refused(`larger than ${MAX_INBOUND_BYTES / 1024 / 1024} MB`);
    await record(rt, undefined, raw.length, r);
    return r;
  }
  let parsed: ParsedEmail;
  try {
    parsed = await parseInbound(raw, opts.envelope);
  } catch (err) {
    if (!(err instanceof MalformedEmail)) throw err;
    const r = refused(`not an email: ${err.message}`);
    await record(rt, undefined, raw.length, r);
    return r;
  }
  let r: Received;
  try {
    r = await decide(rt, parsed, opts.onlyApp);
  } catch (err) {
    // A part the conversation refuses (too long, a file over the limit): the sender is told, nothing half-kept.
    if (!isDomainError(err)) throw err;
    r = refused(err.message);
  }
  await record(rt, parsed, raw.length, r);
  return r;
}
