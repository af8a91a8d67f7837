import { assertApp, type Ctx } from "../auth/context";
import { sqlOf } from "../db/sql";
import { lookupFailed } from "../domain/errors";
import { RATING_COLUMNS, type RatingRow } from "../conversations/csat-request";

/** A conversation's rating request and rating, for its thread in the Inbox; undefined when it was never asked. */
export async function getConversationRating(
  ctx: Ctx,
  input: { conversationId: bigint },
): Promise<RatingRow | undefined> {
  const db = sqlOf(ctx.db);
  const [conv] = await db.$queryRaw<{ app_id: bigint }[]>`
    SELECT app_id FROM conversations WHERE id = ${input.conversationId}`;
  if (!conv) throw lookupFailed(`Conversation ${input.conversationId} does not exist.`);
  assertApp(ctx, conv.app_id);
  const [row] = await db.$queryRaw<RatingRow[]>`
    SELECT ${RATING_COLUMNS} FROM conversation_ratings WHERE conversation_id = ${input.conversationId}`;
  return row;
}

/** A user's latest ratings (the lead card), newest first. */
export async function listUserRatings(
  ctx: Ctx,
  input: { appId: bigint; userId: bigint; limit: number },
): Promise<RatingRow[]> {
  assertApp(ctx, input.appId);
  return sqlOf(ctx.db).$queryRaw<RatingRow[]>`
    SELECT ${RATING_COLUMNS} FROM conversation_ratings
    WHERE app_id = ${input.appId} AND user_id = ${input.userId} AND rating IS NOT NULL
    ORDER BY rated_at DESC, conversation_id DESC LIMIT ${input.limit}`;
}
