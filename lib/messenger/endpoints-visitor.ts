import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { visitorOf } from "../auth/context";
import { p } from "../contract/zod";
import { refreshTokenPair } from "../auth/refresh-tokens";
import { tokenPairSchema } from "../sessions/schemas";
import { hasLauncherBot } from "../bots/start";
import { bootVisitor, countUnread, loadVisitor, serializeVisitorMessenger } from "./boot";
import { bootSchema } from "./visitor-schemas";
import { operatorsAnswer } from "./activity";
import { messengerCors, takeMessengerBudget } from "./endpoints-visitor-edge";

// The visitors' side (/api/messenger/…): what the messenger frame calls. Boot and refresh take no credential but
// the app's public key or the refresh token; everything else takes the visitor's access token and nothing else.
const TAGS = ["Messenger (visitors)"];

export const postBoot = endpoint({
  method: "POST",
  path: "/messenger/boot",
  summary: "A visitor starts the messenger: the device's visitor (made on first boot) and its tokens",
  tags: TAGS,
  cors: messengerCors,
  auth: "none",
  ias: false,
  v2: {
    response: bootSchema,
    params: z.object({
      key: p.str({ min: 1, max: 100 }),
      device_id: p.str({ min: 1, max: 128 }),
      origin: p.str({ max: 300 }).optional(),
    }),
    handler: async (ctx, input, req) => {
      await takeMessengerBudget(req, `d:${input.device_id}`);
      const booted = await bootVisitor(ctx, {
        publicKey: input.key,
        deviceId: input.device_id,
        origin: input.origin,
      });
      const visitorCtx = { ...ctx, appId: booted.settings.appId };
      return {
        data: {
          ...booted.tokens,
          visitor: await loadVisitor(visitorCtx, booted.userId),
          messenger: serializeVisitorMessenger(booted.settings),
          unread: await countUnread(visitorCtx, booted.userId),
          launcher_bot: await hasLauncherBot(ctx.db, booted.settings.appId),
          ...(await operatorsAnswer(visitorCtx, booted.settings.appId)),
        },
      };
    },
  },
});

export const postRefresh = endpoint({
  method: "POST",
  path: "/messenger/refresh",
  summary: "A new token pair for a visitor's refresh token (single use: a reused one revokes its family)",
  tags: TAGS,
  cors: messengerCors,
  auth: "none",
  ias: false,
  v2: {
    response: tokenPairSchema,
    params: z.object({ refresh_token: p.str({ min: 1, max: 200 }) }),
    handler: async (ctx, input) => ({ data: await refreshTokenPair(ctx.db, input.refresh_token) }),
  },
});

export const getMe = endpoint({
  method: "GET",
  path: "/messenger/me",
  summary: "The visitor, and its unread count",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: z.strictObject({ visitor: bootSchema.shape.visitor, unread: z.number().int() }),
    params: z.object({}),
    handler: async (ctx) => {
      const { userId } = visitorOf(ctx);
      return { data: { visitor: await loadVisitor(ctx, userId), unread: await countUnread(ctx, userId) } };
    },
  },
});
