import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import type { Emit } from "../eventlog/append";
import { eventOf } from "../contract/socket";
import { loadConfig } from "../config/env";
import { tryRuntime } from "../server/runtime";
import { BOT_VIA } from "../parts/state";

// The ask of a rating (CSAT) is made by the close that writes it; what follows (rating, email, report) is lib/csat,
// which builds on the conversations and so is not imported here.

/** The rating request's email: run once the visitor has been away for the app's continuity delay. */
export const CSAT_EMAIL_QUEUE = "csat.email";

/** A conversation_ratings row as read and as the events carry it. */
export interface RatingRow {
  conversation_id: bigint;
  app_id: bigint;
  user_id: bigint;
  admin_id: bigint | null;
  requested_at: Date;
  rating: number | null;
  comment: string | null;
  rated_at: Date | null;
  channel: "messenger" | "email" | null;
}

export const RATING_COLUMNS = Prisma.sql`conversation_id, app_id, user_id, admin_id, requested_at, rating, comment,
  rated_at, channel`;

const secs = (d: Date) => Math.floor(d.getTime() / 1000);

/** The row as the API and the event log show it (lib/csat/schemas.ts conversationRatingSchema). */
export function serializeRating(r: RatingRow) {
  return {
    conversation: r.conversation_id,
    user: r.user_id,
    admin: r.admin_id,
    requested: secs(r.requested_at),
    rating: r.rating,
    comment: r.comment,
    rated: r.rated_at && secs(r.rated_at),
    channel: r.channel,
  };
}

/** The `conversation_rating` row of an ask or a rating: the operators' panels and, visitor-shaped, the messenger. */
export const ratingEvent = (r: RatingRow) =>
  eventOf("conversation_rating", { appId: r.app_id, userId: r.user_id }, serializeRating(r));

/**
 * At an operator's close: when the app asks for ratings and the conversation is one with a person on both sides (a
 * visitor's message and a reply of an operator, not a bot's), asks its visitor once (a conversation closed again
 * is not asked twice). The email goes only if the visitor is still away and unrated when the job runs.
 */
export async function requestRating(
  tx: Queryable,
  emit: Emit,
  conv: { id: bigint },
  adminId: bigint | null,
): Promise<void> {
  const [row] = await tx.$queryRaw<RatingRow[]>`
    INSERT INTO conversation_ratings (conversation_id, app_id, user_id, admin_id)
    SELECT c.id, c.app_id, c.user_id, ${adminId}::bigint
    FROM conversations c JOIN apps a ON a.id = c.app_id
    WHERE c.id = ${conv.id} AND a.csat_enabled AND c.has_user_replies AND c.assistant_type IS NULL
      AND EXISTS (SELECT 1 FROM conversation_parts p WHERE p.conversation_id = c.id AND p.type = 'reply_admin'
        AND p.sent_via <> ${BOT_VIA})
    ON CONFLICT (conversation_id) DO NOTHING
    RETURNING ${RATING_COLUMNS}`;
  if (!row) return;
  emit(ratingEvent(row));
  const fallback = (tryRuntime()?.config ?? loadConfig()).email.continuityDelay;
  await tx.$executeRaw`
    INSERT INTO jobs (queue, key, payload, run_at)
    SELECT ${CSAT_EMAIL_QUEUE}, ${`${CSAT_EMAIL_QUEUE}:${conv.id}`}, jsonb_build_object('conversation', c.id::text),
      now() + make_interval(secs => COALESCE(s.continuity_delay, ${fallback}::int))
    FROM conversations c JOIN users u ON u.id = c.user_id LEFT JOIN email_settings s ON s.app_id = c.app_id
    WHERE c.id = ${conv.id} AND u.email IS NOT NULL AND u.email <> '' AND u.email_status = 'subscribed'
    ON CONFLICT (key) DO NOTHING`;
}
