import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { lookupFailed } from "../domain/errors";
import { publishTransient } from "../eventlog/append";
import { actorSelect } from "../parts/load";
import { serializeActor } from "../parts/serialize";
import { resolveAdmin, resolveUser, type AdminRef, type UserRef } from "./actors";
import { eventOf, type EventPayload, type MessengerMessage } from "../contract/socket";
import type { Serialized } from "../contract/schemas";
import { selectConversations } from "./rows";

export interface TypingInput {
  conversationId: bigint;
  body: string;
  fromUser?: UserRef;
  fromAdmin?: AdminRef;
  /** An operator writing a note: their colleagues may see it, the visitor never does. */
  note?: boolean;
}

/**
 * Typing is not stored: it goes straight to the subscribers of `conversation_typing.<app>`, and an operator's
 * typing of a reply (never of a note) to the visitor's messenger.
 */
export async function setTyping(ctx: Ctx, input: TypingInput): Promise<void> {
  const [conv] = await selectConversations(ctx.db, [input.conversationId]);
  if (!conv) throw lookupFailed(`Conversation ${input.conversationId} does not exist.`);
  assertApp(ctx, conv.appId);
  let from: EventPayload<"conversation_typing">["from"];
  let visitor: Serialized<MessengerMessage> | undefined;
  if (input.fromUser !== undefined) {
    from = await resolveUser(ctx.db, conv, input.fromUser);
  } else {
    const adminId = await resolveAdmin(ctx, ctx.db, conv, input.fromAdmin);
    const admin = serializeActor(
      await ctx.db.admin.findUnique({ where: { id: adminId }, select: actorSelect }),
    );
    from = admin;
    // The messenger's shape (lib/messenger/visitor-realtime-schemas.ts), written here: messenger imports us.
    if (!input.note && admin) {
      const shown = { id: admin.id, name: admin.name, avatar: admin.avatar };
      visitor = { type: "messenger_typing", message: { conversation: conv.id, admin: shown } };
    }
  }
  publishTransient(
    eventOf("conversation_typing", conv, {
      conversation: conv.id,
      user: conv.userId,
      body: input.body,
      from,
      ...(input.note ? { note: true } : {}),
    }),
    visitor,
  );
}
