import type { Ctx } from "../auth/context";
import { sqlOf, type Queryable } from "../db/sql";
import { invalid, lookupFailed } from "../domain/errors";
import { withEvents } from "../eventlog/append";
import { RATING_COLUMNS, ratingEvent, type RatingRow } from "../conversations/csat-request";
import type { Serialized } from "../contract/schemas";
import type { RatingChannel, VisitorRating } from "./schemas";

export const ALREADY_RATED = "was already given: a conversation is rated once";

export function visitorRating(r: RatingRow): Serialized<VisitorRating> {
  return {
    conversation: r.conversation_id,
    rating: r.rating,
    comment: r.comment,
    rated: r.rated_at && Math.floor(r.rated_at.getTime() / 1000),
  };
}

export async function ratingOf(db: Queryable, conversationId: bigint): Promise<RatingRow | undefined> {
  const [row] = await db.$queryRaw<RatingRow[]>`
    SELECT ${RATING_COLUMNS} FROM conversation_ratings WHERE conversation_id = ${conversationId}`;
  return row;
}

export interface RateInput {
  conversationId: bigint;
  rating: number;
  comment?: string;
  channel: RatingChannel;
}

/**
 * Records the visitor's rating of a conversation they were asked about, once: a second rating is refused, except
 * the comment of the email page's second step (same score, same channel, no comment yet), which completes it.
 * Callers have checked the rater may rate it (the visitor's own conversation, or a signed link).
 */
export async function rateConversation(ctx: Ctx, input: RateInput): Promise<RatingRow> {
  const comment = input.comment?.trim() || null;
  return withEvents(sqlOf(ctx.db), async (tx, emit) => {
    const [asked] = await tx.$queryRaw<RatingRow[]>`
      SELECT ${RATING_COLUMNS} FROM conversation_ratings WHERE conversation_id = ${input.conversationId}
      FOR UPDATE`;
    if (!asked) throw lookupFailed(`Conversation ${input.conversationId} has no rating to give.`);
    if (asked.rating !== null) {
      const completes =
        asked.rating === input.rating && asked.channel === input.channel && !asked.comment && comment;
      if (!completes) throw invalid({ rating: ALREADY_RATED }, "This conversation was already rated.");
    }
    const [row] = await tx.$queryRaw<RatingRow[]>`
      UPDATE conversation_ratings SET rating = ${input.rating}, comment = ${comment},
        rated_at = COALESCE(rated_at, now()), channel = ${input.channel}
      WHERE conversation_id = ${input.conversationId}
      RETURNING ${RATING_COLUMNS}`;
    emit(ratingEvent(row!));
    return row!;
  });
}
