import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import { errorLine } from "../db/client";
import { countDelivery } from "../server/metrics";
import { sqlOf } from "../db/sql";
import { processWide } from "../config/process-wide";
import type { EmailConfig } from "../config/env";
import type { JobKind } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import { SEND_QUEUE } from "./queue";
import { bounceAddress, unsubscribeToken } from "./tokens";
import { emailBase } from "./threads";

/** Temporary failures are retried from 30 s, doubling (at most an hour apart), for a day. */
const RETRY_BASE_MS = 30_000;
const GIVE_UP_MS = 24 * 3600_000;
export const retryDelayMs = (attempts: number) => Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), 3600_000);

interface EmailRow {
  id: bigint;
  appId: bigint;
  userId: bigint | null;
  toAddress: string;
  toName: string;
  fromName: string;
  fromAddress: string;
  replyTo: string | null;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  subject: string;
  text: string;
  html: string;
  state: string;
  created: Date;
}

/**
 * One pooled transport per SMTP URL in the process: connections are reused across sends (nodemailer pools only
 * when asked, `pool=true`; without it every email opened a connection of its own).
 */
const transports = () => processWide("email.transports", () => new Map<string, Transporter>());

function transportOf(cfg: EmailConfig & { smtpUrl: string }): Transporter {
  let t = transports().get(cfg.smtpUrl);
  if (!t) {
    const url = new URL(cfg.smtpUrl);
    if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
    t = nodemailer.createTransport(url.toString());
    transports().set(cfg.smtpUrl, t);
  }
  return t;
}

/** Closes the pooled connections to an SMTP server (at a server's close: nothing keeps the process alive). */
export function closeTransport(smtpUrl: string | undefined): void {
  if (!smtpUrl) return;
  transports().get(smtpUrl)?.close();
  transports().delete(smtpUrl);
}

/** A rejection no retry will change: a 5xx reply. Refused at RCPT, the address itself is bad: a hard bounce. */
function permanence(err: unknown): "temporary" | "failed" | "bounced" {
  const e = err as { responseCode?: number; command?: string };
  if (typeof e.responseCode !== "number" || e.responseCode < 500) return "temporary";
  return /^RCPT/i.test(e.command ?? "") ? "bounced" : "failed";
}

/** The unsubscribe headers of an email to a visitor (RFC 2369, and RFC 8058's one-click POST). */
async function unsubscribeHeaders(rt: Runtime, row: EmailRow): Promise<Record<string, string>> {
  if (row.userId === null) return {};
  const token = await unsubscribeToken(rt.db, row.userId);
  return {
    "List-Unsubscribe": `<${emailBase(rt)}/api/email/unsubscribe?t=${token}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/**
 * Sends one stored email. At least once overall, at most once per attempt: a crash between the server's accept and
 * our record sends it again with the same Message-ID, which receivers use to drop the repeat.
 */
export async function sendEmail(rt: Runtime, emailId: bigint, attempts: number): Promise<void> {
  const cfg = rt.config.email;
  const db = sqlOf(rt.db);
  const [row] = await db.$queryRaw<EmailRow[]>`
    SELECT id, app_id AS "appId", user_id AS "userId", to_address AS "toAddress", to_name AS "toName",
      from_name AS "fromName", from_address AS "fromAddress", reply_to AS "replyTo", message_id AS "messageId",
      in_reply_to AS "inReplyTo", "references", subject, text, html, state, created
    FROM emails WHERE id = ${emailId}`;
  if (!row || !["queued", "deferred"].includes(row.state)) return;
  if (!cfg.smtpUrl) {
    await db.$executeRaw`
      UPDATE emails SET state = 'not_sent', last_error = 'no SMTP server configured (SMTP_URL)' WHERE id = ${row.id}`;
    return;
  }
  try {
    await transportOf({ ...cfg, smtpUrl: cfg.smtpUrl }).sendMail({
      from: { name: row.fromName, address: row.fromAddress },
      to: { name: row.toName, address: row.toAddress },
      replyTo: row.replyTo ?? undefined,
      subject: row.subject,
      text: row.text,
      html: row.html,
      messageId: row.messageId,
      inReplyTo: row.inReplyTo ?? undefined,
      references: row.references.length ? row.references : undefined,
      envelope: { from: await bounceAddress(rt.db, row.id, cfg.domain), to: row.toAddress },
      headers: {
        // Answering machines do not answer it (RFC 3834), and Exchange sends no out-of-office to it.
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
        ...(await unsubscribeHeaders(rt, row)),
      },
      dkim: cfg.dkim && {
        domainName: row.fromAddress.split("@")[1] ?? cfg.domain,
        keySelector: cfg.dkim.selector,
        privateKey: cfg.dkim.privateKey,
      },
    });
  } catch (err) {
    const kind = permanence(err);
    const error = errorLine(err).slice(0, 1000);
    if (kind === "temporary" && Date.now() - row.created.getTime() < GIVE_UP_MS) {
      await db.$executeRaw`
        UPDATE emails SET state = 'deferred', attempts = ${attempts}, last_error = ${error},
          next_attempt_at = now() + ${retryDelayMs(attempts)} * INTERVAL '1 millisecond'
        WHERE id = ${row.id}`;
      countDelivery("email", "deferred");
      throw err;
    }
    const state = kind === "bounced" ? "bounced" : "failed";
    const why = kind === "temporary" ? `gave up after 24 hours: ${error}` : error;
    await db.$executeRaw`
      UPDATE emails SET state = ${state}, attempts = ${attempts}, last_error = ${why}, next_attempt_at = NULL
      WHERE id = ${row.id}`;
    countDelivery("email", state);
    if (state === "bounced") await recordBounce(rt, row.appId, row.toAddress, why);
    return;
  }
  await db.$executeRaw`
    UPDATE emails SET state = 'sent', attempts = ${attempts}, sent_at = now(), next_attempt_at = NULL,
      last_error = NULL
    WHERE id = ${row.id}`;
  countDelivery("email", "sent");
}

/** A hard bounce: the address gets nothing more from this app until it changes or is re-subscribed. */
export async function recordBounce(
  rt: Runtime,
  appId: bigint,
  address: string,
  reason: string,
): Promise<void> {
  await sqlOf(rt.db).$executeRaw`
    INSERT INTO email_bounces (app_id, address, reason) VALUES (${appId}, ${address.toLowerCase()}, ${reason})
    ON CONFLICT (app_id, address) DO UPDATE SET reason = EXCLUDED.reason, created = now()`;
}

export const emailSendJob: JobKind = {
  name: SEND_QUEUE,
  // With the continuity jobs' two: see lib/email/continuity.ts.
  concurrency: 2,
  background: true,
  // Enough for a day of retries at the delays above; the day's limit is checked against the email's age.
  maxAttempts: 40,
  retryBaseMs: RETRY_BASE_MS,
  run: async (rt, job) => {
    const { email } = job.payload as { email: string };
    await sendEmail(rt, BigInt(email), job.attempts);
  },
};
