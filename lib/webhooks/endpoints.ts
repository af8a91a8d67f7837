import { z } from "zod";
import { endpoint } from "../api/endpoint";
import type { Ctx } from "../auth/context";
import { p } from "../contract/zod";
import { WEBHOOK_KINDS } from "../eventlog/webhook-kinds";
import {
  createWebhook,
  DELIVERY_KEY,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  sendTestWebhook,
  serializeDelivery,
  serializeWebhook,
  updateWebhook,
} from "./subscriptions";
import { empty, v2PageMeta } from "../contract/schemas";
import { v2Keyset, v2Meta, v2PageParams } from "../api/pagination";
import { deliverySchema, webhookListedSchema, webhookSchema } from "./schemas";

// Webhooks are new in v2: operators (session) and the app's API tokens manage them alike.
const TAGS = ["Webhooks"];
const url = p.str({ min: 1, max: 2048, trim: true });
const events = p.list(p.oneOf(WEBHOOK_KINDS), { max: WEBHOOK_KINDS.length });
const secret = p.str({ min: 16, max: 256 });
const ids = { id: p.appId(), webhook_id: p.id() };

export const getWebhooks = endpoint({
  method: "GET",
  path: "/apps/{id}/webhooks",
  summary: "List the app's webhook subscriptions (secrets masked)",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: z.array(webhookListedSchema),
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({
      data: (await listWebhooks(ctx, { appId: input.id })).map((s) => serializeWebhook(s, { secret: false })),
    }),
  },
});

export const postWebhook = endpoint({
  method: "POST",
  path: "/apps/{id}/webhooks",
  summary: "Subscribe a URL to webhook kinds; a secret (whsec_…) is generated unless given",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: webhookSchema,
    params: z.object({
      id: p.appId(),
      url,
      events: events.refine((e) => e.length > 0, { error: "must name at least one kind" }),
      secret: secret.optional(),
      active: p.bool().optional(),
    }),
    handler: async (ctx, input) => {
      const row = await createWebhook(ctx, {
        appId: input.id,
        url: input.url,
        events: input.events,
        secret: input.secret,
        active: input.active,
      });
      return { data: serializeWebhook(row, { secret: true }) };
    },
  },
});

export const getWebhookOne = endpoint({
  method: "GET",
  path: "/apps/{id}/webhooks/{webhook_id}",
  summary: "A webhook subscription, with its signing secret",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: webhookSchema,
    params: z.object(ids),
    handler: async (ctx, input) => ({
      data: serializeWebhook(await getWebhook(ctx, { appId: input.id, webhookId: input.webhook_id }), {
        secret: true,
      }),
    }),
  },
});

const updateParams = z.object({
  ...ids,
  url: url.optional(),
  events: events.refine((e) => e.length > 0, { error: "must name at least one kind" }).optional(),
  secret: secret.optional(),
  rotate_secret: p.bool().optional(),
  active: p.bool().optional(),
});

const updateSpec = {
  path: "/apps/{id}/webhooks/{webhook_id}",
  tags: TAGS,
  scopes: ["app-admin"] as const,
  v2: {
    response: webhookSchema,
    params: updateParams,
    handler: async (ctx: Ctx, input: z.output<typeof updateParams>) => {
      const row = await updateWebhook(ctx, {
        appId: input.id,
        webhookId: input.webhook_id,
        url: input.url,
        events: input.events,
        secret: input.secret,
        rotateSecret: input.rotate_secret,
        active: input.active,
      });
      return { data: serializeWebhook(row, { secret: true }) };
    },
  },
};

export const patchWebhook = endpoint({
  ...updateSpec,
  method: "PATCH",
  summary: "Change a webhook subscription (url, events, secret or rotate_secret, active)",
});

export const postWebhookUpdate = endpoint({
  ...updateSpec,
  method: "POST",
  summary: "Change a webhook subscription (the same as PATCH, for clients without it)",
});

export const deleteWebhookOne = endpoint({
  method: "DELETE",
  path: "/apps/{id}/webhooks/{webhook_id}",
  summary: "Delete a webhook subscription and its delivery log",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: empty,
    params: z.object(ids),
    handler: async (ctx, input) => {
      await deleteWebhook(ctx, { appId: input.id, webhookId: input.webhook_id });
      return { data: {} };
    },
  },
});

export const postWebhookTest = endpoint({
  method: "POST",
  path: "/apps/{id}/webhooks/{webhook_id}/test",
  summary: "Queue a `test` delivery to the subscription's URL (sent even when it is paused)",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: deliverySchema,
    params: z.object(ids),
    handler: async (ctx, input) => ({
      data: serializeDelivery(await sendTestWebhook(ctx, { appId: input.id, webhookId: input.webhook_id })),
    }),
  },
});

export const getWebhookDeliveries = endpoint({
  method: "GET",
  path: "/apps/{id}/webhooks/{webhook_id}/deliveries",
  summary: "The subscription's delivery log, newest first (paged by ID)",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: z.array(deliverySchema),
    meta: v2PageMeta,
    params: z.object({
      ...ids,
      status: p.oneOf(["pending", "succeeded", "failed"]).optional(),
      ...v2PageParams,
    }),
    handler: async (ctx, input) => {
      const keyset = v2Keyset(input, DELIVERY_KEY);
      const page = await listDeliveries(ctx, {
        appId: input.id,
        webhookId: input.webhook_id,
        status: input.status,
        page: keyset,
      });
      return { data: page.items.map(serializeDelivery), meta: v2Meta(DELIVERY_KEY, keyset, page) };
    },
  },
});
