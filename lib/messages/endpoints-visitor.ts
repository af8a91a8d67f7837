import { z } from "zod";
import { visitorOf } from "../auth/context";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { empty } from "../contract/schemas";
import { randomId, text } from "../conversations/params";
import { messengerCors, takeMessengerBudget } from "../messenger/endpoints-visitor-edge";
import { startedAnswer } from "../messenger/endpoints-visitor-conversations";
import { visitorMessageSchema, visitorStartedSchema } from "../messenger/visitor-schemas";
import { markVisitorMessage, replyToAutoMessage, visitorMessages } from "./visitor";

const TAGS = ["Messenger"];

export const getVisitorMessages = endpoint({
  method: "GET",
  path: "/messenger/messages",
  summary: "The chat messages and pop-ups sent to the visitor that it has neither answered nor closed",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: z.array(visitorMessageSchema),
    params: z.object({}),
    handler: async (ctx) => ({ data: await visitorMessages(ctx) }),
  },
});

export const postVisitorMessageRead = endpoint({
  method: "POST",
  path: "/messenger/messages/{send}/read",
  summary: "The visitor saw a message ($message_read, once)",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: empty,
    params: z.object({ send: p.id() }),
    handler: async (ctx, input, req) => {
      await takeMessengerBudget(req, `v:${visitorOf(ctx).userId}`);
      await markVisitorMessage(ctx, { sendId: input.send, kind: "read" });
      return { data: {} };
    },
  },
});

export const postVisitorMessageClick = endpoint({
  method: "POST",
  path: "/messenger/messages/{send}/click",
  summary:
    "The visitor clicked a pop-up's link button or sent its email field ($message_clicked, once; email sets $email)",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: empty,
    params: z.object({ send: p.id(), email: p.str({ min: 3, max: 255, trim: true }).optional() }),
    handler: async (ctx, input, req) => {
      await takeMessengerBudget(req, `v:${visitorOf(ctx).userId}`);
      await markVisitorMessage(ctx, { sendId: input.send, kind: "clicked", email: input.email });
      return { data: {} };
    },
  },
});

export const postVisitorMessageReply = endpoint({
  method: "POST",
  path: "/messenger/messages/{send}/reply",
  summary:
    "The visitor answers a chat message: a conversation (type popup_chat, `message` the message's ID) starts with the message and the answer",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: visitorStartedSchema,
    params: z.object({
      send: p.id(),
      body: text({ max: 10_000 }),
      random_id: randomId().optional(),
      referrer: p.str({ max: 2048 }).optional(),
    }),
    handler: async (ctx, input, req) => {
      await takeMessengerBudget(req, `v:${visitorOf(ctx).userId}`);
      const started = await replyToAutoMessage(ctx, {
        sendId: input.send,
        body: input.body,
        randomId: input.random_id,
        referrer: input.referrer,
      });
      return { data: await startedAnswer(ctx, req, started) };
    },
  },
});
