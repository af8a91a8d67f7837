import { sqlOf } from "../db/sql";
import type { Runtime } from "../server/runtime";
import type { ParsedEmail } from "./inbound/parse";
import type { Received } from "./received";
import { recordBounce } from "./send";
import { bounceIdOf } from "./tokens";

/**
 * A delivery status notification: the email it is about is found by its signed return path (bounce+<id>.<mac>@,
 * VERP) or by the Message-ID it quotes (unguessable too). A hard bounce marks that email bounced and its address bouncing; a delay is noted.
 */
export async function handleBounce(rt: Runtime, p: ParsedEmail, onlyApp?: bigint): Promise<Received> {
  const bounce = p.bounce!;
  const domain = rt.config.email.domain;
  const ids: bigint[] = [];
  for (const r of p.recipients) {
    const id = await bounceIdOf(rt.db, r, domain);
    if (id !== undefined) ids.push(id);
  }
  const db = sqlOf(rt.db);
  const [email] = await db.$queryRaw<
    { id: bigint; app_id: bigint; to_address: string; conversation_id: bigint | null }[]
  >`
    SELECT id, app_id, to_address, conversation_id FROM emails
    WHERE id = ANY(${ids}::bigint[]) OR message_id = ${bounce.originalMessageId ?? ""}
    ORDER BY id DESC LIMIT 1`;
  const base = { appId: email?.app_id ?? null, conversationId: email?.conversation_id ?? null, partId: null };
  if (!email) return { ...base, outcome: "ignored", reason: "a bounce of no email of ours" };
  // Pasted by an app's operator: it may only concern that app's emails.
  if (onlyApp !== undefined && email.app_id !== onlyApp)
    return {
      appId: null,
      conversationId: null,
      partId: null,
      outcome: "refused",
      reason: "addressed to another app",
    };
  if (!bounce.permanent)
    return { ...base, outcome: "ignored", reason: `delivery delayed (${bounce.status || "no status"})` };
  const reason = `hard bounce ${bounce.status}`.trim();
  await db.$executeRaw`
    UPDATE emails SET state = 'bounced', last_error = ${reason}, next_attempt_at = NULL WHERE id = ${email.id}`;
  const addresses = bounce.recipients.length ? bounce.recipients : [email.to_address];
  for (const a of addresses) await recordBounce(rt, email.app_id, a, reason);
  return { ...base, outcome: "bounce", reason };
}
