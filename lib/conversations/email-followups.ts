import type { Queryable } from "../db/sql";
import { loadConfig } from "../config/env";
import { tryRuntime } from "../server/runtime";

/** The continuity job's queue; its handler is lib/email/continuity.ts, which the part writers do not import. */
export const CONTINUITY_QUEUE = "email.continuity";

/** What of a new part decides which emails it may cause. */
export interface EmailedPart {
  type: string;
  direction: string;
}

/**
 * Queues what a transaction's new parts may cause by email, in that transaction: an operator's reply queues the
 * conversation's continuity email for when the app's delay has passed. One job per conversation: replies while it
 * waits join it (one email for all of them); one after it ran queues it again.
 */
export async function scheduleEmails(
  tx: Queryable,
  conv: { id: bigint; user?: { email: string | null } },
  parts: readonly EmailedPart[],
): Promise<void> {
  const operatorReplied = parts.some(
    (p) => p.direction === "a2u" && (p.type === "reply_admin" || p.type === "article"),
  );
  // A visitor without an address gets no email: the hottest write skips the statement.
  if (!operatorReplied || (conv.user && !conv.user.email)) return;
  const fallback = (tryRuntime()?.config ?? loadConfig()).email.continuityDelay;
  await tx.$executeRaw`
    INSERT INTO jobs (queue, key, payload, run_at)
    SELECT ${CONTINUITY_QUEUE}, ${`${CONTINUITY_QUEUE}:${conv.id}`}, jsonb_build_object('conversation', c.id::text),
      now() + make_interval(secs => COALESCE(s.continuity_delay, ${fallback}::int))
    FROM conversations c JOIN users u ON u.id = c.user_id LEFT JOIN email_settings s ON s.app_id = c.app_id
    WHERE c.id = ${conv.id} AND u.email IS NOT NULL AND u.email <> '' AND u.email_status = 'subscribed'
      AND COALESCE(s.continuity, true)
    ON CONFLICT (key) DO UPDATE SET status = 'queued', attempts = 0, run_at = EXCLUDED.run_at, lease_until = NULL,
      last_error = NULL, started = NULL, finished = NULL
    WHERE jobs.status <> 'queued'`;
}
