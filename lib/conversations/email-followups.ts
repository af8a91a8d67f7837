import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import { loadConfig } from "../config/env";
import { tryRuntime } from "../server/runtime";
import { BOT_VIA } from "../parts/state";

// The email jobs new parts may queue; their handlers are in lib/email, which the part writers do not import.
/** The visitor's unread operator replies, by email once the app's delay has passed. */
export const CONTINUITY_QUEUE = "email.continuity";
/** A visitor's message no operator has read within the app's operator delay: its operators are emailed. */
export const OPERATORS_QUEUE = "email.operators";
/** A closed conversation, emailed to its visitor (when the app sends transcripts). */
export const TRANSCRIPT_QUEUE = "email.transcript";

/** What of a new part decides which emails it may cause. */
export interface EmailedPart {
  type: string;
  direction: string;
  sentVia: string;
}

/**
 * One job per conversation and queue: a part while it waits joins it (one email for all of them); one after it ran
 * (done, failed or running) queues it again at the new time. The running holder's claim no longer matches, so it
 * records nothing over the new one.
 */
const QUEUE_AGAIN = Prisma.sql`
  ON CONFLICT (key) DO UPDATE SET status = 'queued', attempts = 0, run_at = EXCLUDED.run_at, lease_until = NULL,
    last_error = NULL, started = NULL, finished = NULL
  WHERE jobs.status <> 'queued'`;

/** The visitor may be emailed: an address, subscribed. */
const REACHABLE = Prisma.sql`u.email IS NOT NULL AND u.email <> '' AND u.email_status = 'subscribed'`;

function queue(tx: Queryable, name: string, convId: bigint, delay: Prisma.Sql, when: Prisma.Sql) {
  return tx.$executeRaw(Prisma.sql`
    INSERT INTO jobs (queue, key, payload, run_at)
    SELECT ${name}, ${`${name}:${convId}`}, jsonb_build_object('conversation', c.id::text),
      now() + make_interval(secs => ${delay})
    FROM conversations c JOIN users u ON u.id = c.user_id LEFT JOIN email_settings s ON s.app_id = c.app_id
    WHERE c.id = ${convId} AND ${when}
    ${QUEUE_AGAIN}`);
}

/**
 * Queues, in the transaction that writes them, the emails new parts may cause: an operator's reply, the visitor's
 * continuity email; a visitor's message, its operators' email if none reads it in time; a close, the transcript.
 */
export async function scheduleEmails(
  tx: Queryable,
  conv: { id: bigint; user?: { email: string | null } },
  parts: readonly EmailedPart[],
): Promise<void> {
  // A bot's messages are not the team's replies: they are never emailed on.
  const has = (...types: string[]) => parts.some((p) => types.includes(p.type) && p.sentVia !== BOT_VIA);
  // A visitor without an address is never emailed: the hottest write skips the statement.
  const reachable = !conv.user || !!conv.user.email;
  if (reachable && has("reply_admin", "article")) {
    const fallback = (tryRuntime()?.config ?? loadConfig()).email.continuityDelay;
    await queue(
      tx,
      CONTINUITY_QUEUE,
      conv.id,
      Prisma.sql`COALESCE(s.continuity_delay, ${fallback}::int)`,
      Prisma.sql`${REACHABLE} AND COALESCE(s.continuity, true)`,
    );
  }
  if (has("reply_user")) await queueOperatorEmail(tx, conv.id);
  if (reachable && has("closed"))
    await queue(
      tx,
      TRANSCRIPT_QUEUE,
      conv.id,
      Prisma.sql`0`,
      Prisma.sql`${REACHABLE} AND COALESCE(s.transcripts, false)`,
    );
}

/**
 * The operators' email for a visitor's unread message. Not while a bot runs the conversation: its hand-over queues
 * it (lib/conversations/bot-run.ts).
 */
export function queueOperatorEmail(tx: Queryable, convId: bigint) {
  return queue(
    tx,
    OPERATORS_QUEUE,
    convId,
    Prisma.sql`COALESCE(s.operator_delay, 180)`,
    Prisma.sql`COALESCE(s.operator_emails, true) AND c.assistant_type IS NULL`,
  );
}
