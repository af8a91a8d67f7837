import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { invalid, lookupFailed } from "../domain/errors";
import type { UserRef } from "./actors";
import type { QuickReplyButton } from "../parts/schemas";
import { replyToConversation, type ReplyResult } from "./reply";

export interface ClickInput {
  conversationId: bigint;
  partId: bigint;
  /** Index of the button in the part's `actions`. */
  action: number;
  fromUser?: UserRef;
  randomId?: number;
}

/** A visitor's click on a quick-reply button: their reply, carrying the button's text and its meta_data. */
export async function clickQuickReply(ctx: Ctx, input: ClickInput): Promise<ReplyResult> {
  const part = await ctx.db.conversationPart.findUnique({
    where: { id: input.partId },
    select: { conversationId: true, appId: true, actions: true },
  });
  if (!part) throw lookupFailed(`Part ${input.partId} does not exist.`);
  assertApp(ctx, part.appId);
  if (part.conversationId !== input.conversationId)
    throw invalid({ part: "is not a part of this conversation" });
  const actions = Array.isArray(part.actions) ? (part.actions as unknown as QuickReplyButton[]) : [];
  const button = actions[input.action];
  if (!button) {
    throw invalid({
      action: actions.length ? `must be 0 to ${actions.length - 1}` : "this part has no buttons",
    });
  }
  return replyToConversation(ctx, {
    conversationId: input.conversationId,
    fromUser: input.fromUser ?? "default_user",
    body: button.body,
    metaData: button.meta_data ?? {},
    randomId: input.randomId,
  });
}
