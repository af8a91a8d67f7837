import type { Ctx } from "../auth/context";
import { denied } from "../domain/errors";
import { rateConversation, ratingOf } from "./rate";
import { verifyRatingToken } from "./tokens";

/**
 * An email's rating link followed (its page posts it): the score the link was signed for, with the comment of the
 * page's second step. Opening the same link again answers the rating as it stands instead of refusing it.
 */
export async function rateByToken(ctx: Ctx, input: { token: string; comment?: string }) {
  const named = await verifyRatingToken(ctx.db, input.token);
  if (!named) throw denied("This rating link is not valid.");
  const now = await ratingOf(ctx.db, named.conversationId);
  if (now && now.rating === named.rating && now.channel === "email" && !input.comment?.trim()) return now;
  return rateConversation(ctx, { ...named, comment: input.comment, channel: "email" });
}
