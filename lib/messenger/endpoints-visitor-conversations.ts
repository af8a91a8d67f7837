import { z } from "zod";
import type { Ctx } from "../auth/context";
import { visitorOf } from "../auth/context";
import { endpoint } from "../api/endpoint";
import { v2Keyset, v2Meta, v2PageParams } from "../api/pagination";
import { p } from "../contract/zod";
import { empty, v2PageMeta } from "../contract/schemas";
import { invalid } from "../domain/errors";
import { UPLOAD_BODY_LIMIT } from "../attachments/store";
import { CONVERSATION_KEY } from "../conversations/list";
import { PART_KEY } from "../conversations/get";
import { randomId, text } from "../conversations/params";
import { responseUrls } from "../conversations/endpoints-shared";
import { startConversation, type Started } from "../conversations/start";
import { replyToConversation } from "../conversations/reply";
import { setTyping } from "../conversations/typing";
import { markConversationRead } from "../conversations/read";
import { clickQuickReply } from "../conversations/quick-reply";
import { messengerCors, takeMessengerBudget } from "./endpoints-visitor-edge";
import { botToStart } from "../bots/start";
import { operatorsNow } from "./activity";
import {
  chosenActions,
  listVisitorParts,
  requireVisitorPart,
  serializeVisitorPart,
  visitorConversation,
} from "./visitor-parts";
import {
  listVisitorConversations,
  serializeVisitorConversation,
  visitorConversationView,
} from "./visitor-conversations";
import { visitorConversationSchema, visitorPartSchema, visitorStartedSchema } from "./visitor-schemas";
import type { ApiRequest } from "../api/api-request";

// The visitor's conversations (/api/messenger/conversations…): only its own, by its access token alone. Each
// write checks the conversation is the visitor's, then calls the same service as the operators' API with the
// visitor as the author, so events, counters and webhooks are the same whoever sends.
const TAGS = ["Messenger (visitors)"];

const message = {
  body: text({ max: 10_000 }).optional(),
  attachment: p.file().optional(),
  referrer: text({ max: 2048 }).optional(),
  random_id: randomId().optional(),
};

function requireContent(input: { body?: string; attachment?: File }): void {
  if ((input.body ?? "").trim() === "" && !input.attachment) {
    throw invalid({ body: "is required unless an attachment is sent" });
  }
}

const own = async (ctx: Ctx, id: bigint) => (await visitorConversation(ctx, id)).id;

export const getVisitorConversations = endpoint({
  method: "GET",
  path: "/messenger/conversations",
  summary: "The visitor's conversations, newest last_update first",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: z.array(visitorConversationSchema),
    meta: v2PageMeta,
    params: z.object({ ...v2PageParams }),
    handler: async (ctx, input, req) => {
      const keyset = v2Keyset(input, CONVERSATION_KEY);
      const page = await listVisitorConversations(ctx, keyset);
      const urls = await responseUrls(ctx, req);
      return {
        data: page.items.map((v) => serializeVisitorConversation(v, urls)),
        meta: v2Meta(CONVERSATION_KEY, keyset, page),
      };
    },
  },
});

export const getVisitorParts = endpoint({
  method: "GET",
  path: "/messenger/conversations/{id}/parts",
  summary: "The messages of one of the visitor's conversations (never notes or system changes), newest first",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: z.array(visitorPartSchema),
    meta: v2PageMeta,
    params: z.object({ id: p.id(), ...v2PageParams }),
    handler: async (ctx, input, req) => {
      const keyset = v2Keyset(input, PART_KEY);
      const page = await listVisitorParts(ctx, { conversationId: input.id, page: keyset });
      const urls = await responseUrls(ctx, req);
      const chosen = await chosenActions(ctx, page.items);
      return {
        data: page.items.map((part) => serializeVisitorPart(part, urls, chosen)),
        meta: v2Meta(PART_KEY, keyset, page),
      };
    },
  },
});

/** What a visitor's new conversation answers: the conversation and the visitor's part, with their links. */
export async function startedAnswer(ctx: Ctx, req: ApiRequest, started: Started) {
  const urls = await responseUrls(ctx, req);
  const view = await visitorConversationView(ctx, started.conversationId);
  return {
    conversation: serializeVisitorConversation(view, urls),
    part: serializeVisitorPart(started.part, urls),
  };
}

export const postVisitorConversation = endpoint({
  method: "POST",
  path: "/messenger/conversations",
  summary: "The visitor starts a conversation with a message (a body, an attachment or both)",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  bodyLimit: UPLOAD_BODY_LIMIT,
  v2: {
    response: visitorStartedSchema,
    params: z.object(message),
    handler: async (ctx, input, req) => {
      const { userId, appId } = visitorOf(ctx);
      requireContent(input);
      await takeMessengerBudget(req, `v:${userId}`);
      const bot = await botToStart(ctx, { appId, userId, operators: () => operatorsNow(ctx, appId) });
      const started = await startConversation(ctx, {
        bot,
        user: { id: String(userId), byUserId: false },
        body: input.body,
        file: input.attachment,
        filename: input.attachment?.name,
        randomId: input.random_id,
        referrer: input.referrer,
      });
      return { data: await startedAnswer(ctx, req, started) };
    },
  },
});

export const postVisitorReply = endpoint({
  method: "POST",
  path: "/messenger/conversations/{id}/reply",
  summary: "The visitor's message in one of its conversations",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  bodyLimit: UPLOAD_BODY_LIMIT,
  v2: {
    response: visitorPartSchema,
    params: z.object({ id: p.id(), ...message }),
    handler: async (ctx, input, req) => {
      const { userId } = visitorOf(ctx);
      const conversationId = await own(ctx, input.id);
      requireContent(input);
      await takeMessengerBudget(req, `v:${userId}`);
      const r = await replyToConversation(ctx, {
        conversationId,
        fromUser: userId,
        body: input.body,
        attachment: input.attachment,
        randomId: input.random_id,
        referrer: input.referrer,
      });
      return { data: serializeVisitorPart(r.part, await responseUrls(ctx, req)) };
    },
  },
});

export const postVisitorTyping = endpoint({
  method: "POST",
  path: "/messenger/conversations/{id}/typing",
  summary:
    "The visitor is typing (not stored; operators see it live). Over the visitor's typing budget: 429 Throttled",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: empty,
    params: z.object({ id: p.id(), body: text({ max: 10_000 }).optional() }),
    handler: async (ctx, input, req) => {
      const { userId } = visitorOf(ctx);
      // Before any read: each update goes to every operator's socket, and an excess one costs nothing here.
      await takeMessengerBudget(req, `v:${userId}`, "typing");
      const conversationId = await own(ctx, input.id);
      await setTyping(ctx, { conversationId, body: input.body ?? "", fromUser: userId });
      return { data: {} };
    },
  },
});

export const postVisitorRead = endpoint({
  method: "POST",
  path: "/messenger/conversations/{id}/read",
  summary: "The visitor has read the team's messages in one of its conversations",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: empty,
    params: z.object({ id: p.id() }),
    handler: async (ctx, input) => {
      const { userId } = visitorOf(ctx);
      const conversationId = await own(ctx, input.id);
      await markConversationRead(ctx, { conversationId, fromUser: userId });
      return { data: {} };
    },
  },
});

export const postVisitorQuickReply = endpoint({
  method: "POST",
  path: "/messenger/conversations/{id}/quickreply",
  summary: "The visitor clicks a quick-reply button: its reply with the button's body and meta_data",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: visitorPartSchema,
    params: z.object({
      id: p.id(),
      part: p.id(),
      action: p.int({ min: 0, max: 19 }),
      random_id: randomId().optional(),
    }),
    handler: async (ctx, input, req) => {
      const { userId } = visitorOf(ctx);
      const conversationId = await own(ctx, input.id);
      await requireVisitorPart(ctx, conversationId, input.part);
      await takeMessengerBudget(req, `v:${userId}`);
      const r = await clickQuickReply(ctx, {
        conversationId,
        partId: input.part,
        action: input.action,
        fromUser: userId,
        randomId: input.random_id,
      });
      return { data: serializeVisitorPart(r.part, await responseUrls(ctx, req)) };
    },
  },
});
