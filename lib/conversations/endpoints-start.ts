import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { UPLOAD_BODY_LIMIT } from "../attachments/store";
import { serializePart } from "../parts/serialize";
import { adminRef, jsonObject, randomId, text } from "./params";
import { sendMessage, startConversation } from "./start";
import { userIdParam } from "../users/user-id";
import { responseUrls } from "./endpoints-shared";
import { startedV1Schema, startedV2Schema } from "./schemas";

const user = {
  id: userIdParam,
  by_user_id: p.bool().optional(),
  app: p.appId().optional(),
};
const pathUser = (i: { id: string; by_user_id?: boolean; app?: bigint }) => ({
  id: i.id,
  byUserId: i.by_user_id ?? false,
  app: i.app,
});

const startParams = z.object({
  ...user,
  body: text().optional(),
  file: p.file().optional(),
  filename: text({ min: 1, max: 255 }).optional(),
  random_id: randomId().optional(),
  referrer: text({ max: 2048 }).optional(),
  channel: p.id().optional(),
});

const start = (input: z.output<typeof startParams>) => ({
  user: pathUser(input),
  body: input.body,
  file: input.file,
  filename: input.filename,
  randomId: input.random_id,
  referrer: input.referrer,
  channel: input.channel,
});

export const postStartConversation = endpoint({
  method: "POST",
  path: "/users/{id}/startconversation",
  summary: "Start a conversation as the visitor (body and/or file with filename)",
  tags: ["Users"],
  scopes: ["conversations-write", "as-user"],
  bodyLimit: UPLOAD_BODY_LIMIT,
  v1: {
    response: startedV1Schema,
    params: startParams,
    handler: async (ctx, input) => ({
      data: { id: (await startConversation(ctx, start(input))).conversationId },
    }),
  },
  v2: {
    response: startedV2Schema,
    params: startParams,
    handler: async (ctx, input, req) => {
      const r = await startConversation(ctx, start(input));
      return {
        data: {
          id: r.conversationId,
          part: serializePart(r.part, { version: 2, urls: await responseUrls(ctx, req) }),
        },
      };
    },
  },
});

const sendV2 = z.object({
  ...user,
  body: text().optional(),
  body_json: jsonObject().optional(),
  file: p.file().optional(),
  filename: text({ min: 1, max: 255 }).optional(),
  from_admin: adminRef().optional(),
  random_id: randomId().optional(),
  channel: p.id().optional(),
});

const sendV1 = z.object({
  ...user,
  body: text({ min: 1 }),
  from_admin: p.id().optional(),
  random_id: randomId().optional(),
});

export const postSendMessage = endpoint({
  method: "POST",
  path: "/users/{id}/sendmessage",
  summary: "An operator's message that starts a conversation (shown in the Inbox once the visitor replies)",
  tags: ["Users"],
  scopes: ["conversations-write"],
  bodyLimit: UPLOAD_BODY_LIMIT,
  v1: {
    response: startedV1Schema,
    params: sendV1,
    handler: async (ctx, input) => {
      const r = await sendMessage(ctx, {
        user: pathUser(input),
        body: input.body,
        fromAdmin: input.from_admin,
        randomId: input.random_id,
      });
      return { data: { id: r.conversationId } };
    },
  },
  v2: {
    response: startedV2Schema,
    params: sendV2,
    handler: async (ctx, input, req) => {
      const r = await sendMessage(ctx, {
        user: pathUser(input),
        body: input.body,
        bodyJson: input.body_json,
        file: input.file,
        filename: input.filename,
        fromAdmin: input.from_admin,
        randomId: input.random_id,
        channel: input.channel,
      });
      return {
        data: {
          id: r.conversationId,
          part: serializePart(r.part, { version: 2, urls: await responseUrls(ctx, req) }),
        },
      };
    },
  },
});
