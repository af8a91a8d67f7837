import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { getUser } from "./get-user";
import { listActiveUsers, setPresence } from "./presence";
import { PRESENCES } from "../user-model/presence-state";
import { userRefParams } from "./resolve";
import { presenceDetails, serializeUserV1, serializeUserV2 } from "./serialize-user";
import { setWebpush, unsubscribeEmail } from "./subscriptions";
import { systemProps } from "../user-model/system-props";
import { empty } from "../contract/schemas";
import {
  activeUserSchema,
  activeUsersMeta,
  emailStatusSchema,
  presenceSetSchema,
  userV1Schema,
  userV2Schema,
  webpushSchema,
} from "./schemas";

const v1Switches = {
  props: p.bool().optional(),
  props_events: p.bool().optional(),
  props_custom: p.bool().optional(),
  presence_details: p.bool().optional(),
  events: p.bool().optional(),
  segments: p.bool().optional(),
  notes: p.bool().optional(),
};

export const getUserData = endpoint({
  method: "GET",
  path: "/users/{id}",
  summary: "Get user data, with optional parts switched on",
  tags: ["Users"],
  scopes: ["user-read"],
  v1: {
    response: userV1Schema,
    params: z.object({ ...userRefParams, ...v1Switches }),
    handler: async (ctx, input) => ({
      data: serializeUserV1(await getUser(ctx, { user: input, switches: input }), input),
    }),
  },
  v2: {
    response: userV2Schema,
    params: z.object({
      ...userRefParams,
      ...v1Switches,
      tags: p.bool().optional(),
      email_status: p.bool().optional(),
      timezone_offset: p.bool().optional(),
      props_sources: p.bool().optional().meta({ description: "where $email and $phone came from" }),
      convert_props_types: p.bool().optional(),
    }),
    handler: async (ctx, input) => {
      const view = await getUser(ctx, { user: input, switches: input });
      return { data: serializeUserV2(view, input, { asStrings: input.convert_props_types === false }) };
    },
  },
});

const presenceParams = z.object({
  ...userRefParams,
  presence: p.oneOf(PRESENCES).optional().meta({ description: "online (default) or idle" }),
  page_url: p.str({ max: 2048 }).optional(),
  page_title: p.str({ max: 255 }).optional(),
  timezone_offset: p.int({ min: -720, max: 840 }).optional().meta({ description: "minutes east of UTC" }),
});

async function heartbeat(ctx: Parameters<typeof setPresence>[0], input: z.output<typeof presenceParams>) {
  return setPresence(ctx, {
    user: input,
    presence: input.presence ?? "online",
    pageUrl: input.page_url,
    pageTitle: input.page_title,
    timezoneOffset: input.timezone_offset,
  });
}

export const postSetPresence = endpoint({
  method: "POST",
  path: "/users/{id}/setpresence",
  summary: "Presence heartbeat: online or idle on a page for the next two minutes",
  tags: ["Users"],
  scopes: ["user-write"],
  v1: {
    response: empty,
    params: presenceParams,
    handler: async (ctx, input) => {
      await heartbeat(ctx, input);
      return { data: {} };
    },
  },
  v2: {
    response: presenceSetSchema,
    params: presenceParams,
    handler: async (ctx, input) => {
      const r = await heartbeat(ctx, input);
      return { data: { id: r.id, app: r.appId, presence: r.presence } };
    },
  },
});

const activeParams = z.object({ id: p.appId(), limit: p.int({ min: 1, max: 500 }).optional() });

async function activeUsers(ctx: Parameters<typeof listActiveUsers>[0], input: z.output<typeof activeParams>) {
  const r = await listActiveUsers(ctx, { appId: input.id, limit: input.limit });
  const data = r.users.map((u) => {
    const details = presenceDetails(u);
    return {
      id: u.id,
      app: u.appId,
      user_id: u.userId ?? "",
      presence: details.presence,
      presence_details: details,
      props: systemProps(u),
    };
  });
  return { data, meta: { total: r.total } };
}

export const getActiveUsers = endpoint({
  method: "GET",
  path: "/apps/{id}/activeusers",
  summary: "Users online or idle now, with presence details, most recent heartbeat first",
  tags: ["Users"],
  scopes: ["users-list"],
  v1: {
    params: activeParams,
    response: z.array(activeUserSchema),
    meta: activeUsersMeta,
    handler: activeUsers,
  },
  v2: {
    params: activeParams,
    response: z.array(activeUserSchema),
    meta: activeUsersMeta,
    handler: activeUsers,
  },
});

const refOnly = z.object(userRefParams);

export const postUnsubscribeEmail = endpoint({
  method: "POST",
  path: "/users/{id}/unsubscribeemail",
  summary: "Mark the user Unsubscribed from email",
  tags: ["Users"],
  scopes: ["user-write"],
  v1: {
    response: empty,
    params: refOnly,
    handler: async (ctx, input) => {
      await unsubscribeEmail(ctx, { user: input });
      return { data: {} };
    },
  },
  v2: {
    response: emailStatusSchema,
    params: refOnly,
    handler: async (ctx, input) => {
      const r = await unsubscribeEmail(ctx, { user: input });
      return { data: { id: r.id, app: r.appId, email_status: r.emailStatus } };
    },
  },
});

const webpushParams = z.object({ ...userRefParams, subscribed: p.bool() });

export const postWebpush = endpoint({
  method: "POST",
  path: "/users/{id}/webpush",
  summary: "Set whether the user is subscribed to web push (counts for the v2 lead rule)",
  tags: ["Users"],
  scopes: ["user-write"],
  v1: {
    response: empty,
    params: webpushParams,
    handler: async (ctx, input) => {
      await setWebpush(ctx, { user: input, subscribed: input.subscribed });
      return { data: {} };
    },
  },
  v2: {
    response: webpushSchema,
    params: webpushParams,
    handler: async (ctx, input) => {
      const r = await setWebpush(ctx, { user: input, subscribed: input.subscribed });
      return { data: { id: r.id, app: r.appId, webpush_subscribed: r.subscribed } };
    },
  },
});
