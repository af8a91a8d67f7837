import { z } from "zod";
import { visitorOf } from "../auth/context";
import { endpoint } from "../api/endpoint";
import { withEvents } from "../eventlog/append";
import { attachmentUrls, publicBase } from "../attachments/sign";
import { launcherBotFor } from "../bots/start";
import { openBotConversation } from "../conversations/start-bot";
import { responseUrls } from "../conversations/endpoints-shared";
import { messengerCors, takeMessengerBudget } from "./endpoints-visitor-edge";
import { serializeVisitorConversation, visitorConversationView } from "./visitor-conversations";
import { visitorConversationSchema } from "./visitor-schemas";

const TAGS = ["Messenger (visitors)"];

/**
 * The messenger's "New conversation" when the app has a launcher bot (the boot's `launcher_bot`): the bot opens the
 * conversation with its first steps, before the visitor writes, and runs it as a `widget_bot`. A conversation the
 * bot opened that the visitor never answered is opened again rather than another made, so clicking New
 * conversation twice leaves one. `conversation` is null when no launcher bot is for this visitor (its audience):
 * the messenger shows its plain composer.
 */
export const postVisitorBotConversation = endpoint({
  method: "POST",
  path: "/messenger/bot_conversations",
  summary: "The visitor's new conversation, opened by the app's launcher bot (assistant_type widget_bot)",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: z.strictObject({ conversation: visitorConversationSchema.nullable() }),
    params: z.object({}),
    handler: async (ctx, _input, req) => {
      const { userId, appId } = visitorOf(ctx);
      await takeMessengerBudget(req, `v:${userId}`);
      const [unanswered] = await ctx.db.$queryRaw<{ id: bigint }[]>`
        SELECT c.id FROM conversations c
        WHERE c.user_id = ${userId} AND c.assistant_type = 'widget_bot' AND c.closed = false
          AND NOT EXISTS (
            SELECT 1 FROM conversation_parts p WHERE p.conversation_id = c.id AND p.type = 'reply_user')
        ORDER BY c.id DESC LIMIT 1`;
      let id = unanswered?.id;
      if (id === undefined) {
        const bot = await launcherBotFor(ctx, { appId, userId });
        if (!bot) return { data: { conversation: null } };
        const urls = await attachmentUrls(ctx.db, publicBase());
        id = await withEvents(ctx.db, (tx, emit) =>
          openBotConversation(tx, emit, urls, { appId, userId, assistantType: "widget_bot", bot }),
        );
      }
      const view = await visitorConversationView(ctx, id);
      return { data: { conversation: serializeVisitorConversation(view, await responseUrls(ctx, req)) } };
    },
  },
});
