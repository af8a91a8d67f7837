import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { lookupFailed } from "../domain/errors";
import { publishTransient } from "../eventlog/append";
import { actorSelect } from "../parts/load";
import { serializeActor } from "../parts/serialize";
import { resolveAdmin, resolveUser, type AdminRef, type UserRef } from "./actors";
import { logEvent } from "./events";
import { selectConversations } from "./rows";

export interface TypingInput {
  conversationId: bigint;
  body: string;
  fromUser?: UserRef;
  fromAdmin?: AdminRef;
}

/** Typing is not stored: it goes straight to the subscribers of `conversation_typing.<app>`. */
export async function setTyping(ctx: Ctx, input: TypingInput): Promise<void> {
  const [conv] = await selectConversations(ctx.db, [input.conversationId]);
  if (!conv) throw lookupFailed(`Conversation ${input.conversationId} does not exist.`);
  assertApp(ctx, conv.appId);
  let from: unknown;
  if (input.fromUser !== undefined) {
    from = await resolveUser(ctx.db, conv, input.fromUser);
  } else {
    const adminId = await resolveAdmin(ctx, ctx.db, conv, input.fromAdmin);
    from = serializeActor(await ctx.db.admin.findUnique({ where: { id: adminId }, select: actorSelect }));
  }
  publishTransient(
    logEvent("conversation_typing", conv, {
      conversation: conv.id,
      user: conv.userId,
      body: input.body,
      from,
    }),
  );
}
