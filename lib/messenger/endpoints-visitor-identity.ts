import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { visitorOf } from "../auth/context";
import { p } from "../contract/zod";
import { empty } from "../contract/schemas";
import { MAX_OPERATIONS } from "../props/operations";
import { eventParams } from "../events/endpoints";
import { loadVisitor } from "./boot";
import { visitorSchema } from "./visitor-schemas";
import { heartbeatSchema, identifyMeta, visitorAuthSchema } from "./identity-schemas";
import { identifyVisitor } from "./identify";
import { loginVisitor, logoutVisitor } from "./visitor-login";
import { messengerCors, takeMessengerBudget } from "./endpoints-visitor-edge";
import { userIdParam } from "../users/user-id";
import { forgetVisitorPresence, heartbeatAnswer, trackVisitorEvent, visitorHeartbeat } from "./activity";

// The visitor says who it is, logs in as the site's user or out, and reports what it does and that it is there.
const TAGS = ["Messenger (visitors)"];

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const SOURCE = /^[a-z0-9_]+$/;

export const postIdentify = endpoint({
  method: "POST",
  path: "/messenger/identify",
  summary: "The visitor tells its name, email, phone or custom props (an email or phone makes it a lead)",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: visitorSchema,
    meta: identifyMeta,
    params: z.object({
      name: p.str({ min: 1, max: 255, trim: true }).optional(),
      email: p
        .str({ min: 3, max: 255, trim: true })
        .refine((v) => EMAIL.test(v), { error: "must be an email address" })
        .optional(),
      phone: p.str({ min: 1, max: 64, trim: true }).optional(),
      source: p
        .str({ min: 1, max: 64 })
        .refine((v) => SOURCE.test(v), { error: "must be lowercase letters, digits and _" })
        .optional()
        .meta({
          description: "where the messenger learnt it, e.g. email_prompt; kept as messenger.<source>",
        }),
      props: p
        .json(z.record(z.string().min(1).max(255), z.unknown(), { error: "must be a JSON object" }))
        .optional(),
      operations: p
        .json(
          z
            .array(z.unknown(), { error: "must be a JSON array of operations {op, key, value}" })
            .max(MAX_OPERATIONS, { error: `must have at most ${MAX_OPERATIONS} operations` }),
        )
        .optional(),
    }),
    handler: async (ctx, input) => {
      const { userId } = visitorOf(ctx);
      const r = await identifyVisitor(ctx, { userId, ...input });
      return { data: await loadVisitor(ctx, userId), meta: { ignored_operations: r.ignored } };
    },
  },
});

export const postAuth = endpoint({
  method: "POST",
  path: "/messenger/auth",
  summary:
    "The visitor logs in as the site's user (user_hash: HMAC-SHA256 of user_id with the identity secret)",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  ias: false,
  v2: {
    response: visitorAuthSchema,
    params: z.object({
      user_id: userIdParam,
      user_hash: p.str({ min: 1, max: 128 }).optional(),
    }),
    handler: async (ctx, input) => {
      const { appId, userId } = visitorOf(ctx);
      const r = await loginVisitor(ctx, {
        appId,
        visitorId: userId,
        userId: input.user_id,
        userHash: input.user_hash,
      });
      return {
        data: {
          ...r.tokens,
          visitor: await loadVisitor(ctx, r.userId),
          verified: r.verified,
          merged: r.merged,
        },
      };
    },
  },
});

export const postLogout = endpoint({
  method: "POST",
  path: "/messenger/logout",
  summary: "The visitor logs out: its tokens and sockets end and its devices are forgotten",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: empty,
    params: z.object({}),
    handler: async (ctx) => {
      const { userId, family } = visitorOf(ctx);
      await logoutVisitor(ctx, { visitorId: userId, family });
      forgetVisitorPresence(ctx.db, userId);
      return { data: {} };
    },
  },
});

export const postTrack = endpoint({
  method: "POST",
  path: "/messenger/track",
  summary: "The visitor's event (names starting with $ are reserved: $page_view)",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: empty,
    params: z.object({ name: p.str({ min: 1, max: 255 }), params: eventParams }),
    handler: async (ctx, input, req) => {
      const { userId } = visitorOf(ctx);
      await takeMessengerBudget(req, `v:${userId}`, "track");
      await trackVisitorEvent(ctx, { userId, name: input.name, params: input.params });
      return { data: {} };
    },
  },
});

export const postHeartbeat = endpoint({
  method: "POST",
  path: "/messenger/heartbeat",
  summary:
    "The visitor is on a page (every ~20 s): online, its sessions; answers its unread and operators' presence",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: heartbeatSchema,
    params: z.object({
      url: p.str({ max: 2048 }).optional(),
      referrer: p.str({ max: 2048 }).optional(),
      title: p.str({ max: 255 }).optional(),
      timezone_offset: p
        .int({ min: -720, max: 840 })
        .optional()
        .meta({ description: "minutes east of UTC (-new Date().getTimezoneOffset())" }),
    }),
    handler: async (ctx, input) => {
      const { appId, userId } = visitorOf(ctx);
      await visitorHeartbeat(ctx, {
        userId,
        url: input.url,
        referrer: input.referrer || undefined,
        title: input.title,
        timezoneOffset: input.timezone_offset,
      });
      return { data: await heartbeatAnswer(ctx, { appId, userId }) };
    },
  },
});
