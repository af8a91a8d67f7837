import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { invalid } from "../domain/errors";
import { listNotifications, markNotificationsRead } from "./notifications";
import { notificationSchema, notificationsMetaSchema, notificationsReadSchema } from "./schemas";
import { serializeNotification } from "./serialize";

// New in v2, operators only (a session; tokens are refused by the service: they are nobody's).
const TAGS = ["Notifications"];

export const getNotifications = endpoint({
  method: "GET",
  path: "/notifications",
  summary:
    "The operator's notifications, newest first (mentions, assignments, replies); meta.unread counts all unread",
  tags: TAGS,
  scopes: [],
  sessionOnly: true,
  v2: {
    response: z.array(notificationSchema),
    meta: notificationsMetaSchema,
    params: z.object({
      limit: p.int({ min: 1, max: 100 }).optional(),
      unread_only: p.bool().optional(),
    }),
    handler: async (ctx, input) => {
      const r = await listNotifications(ctx, {
        limit: input.limit ?? 30,
        unreadOnly: input.unread_only ?? false,
      });
      return { data: r.items.map(serializeNotification), meta: { unread: r.unread } };
    },
  },
});

export const postNotificationsRead = endpoint({
  method: "POST",
  path: "/notifications/read",
  summary: "Mark notifications read: `ids`, or `all`",
  tags: TAGS,
  scopes: [],
  sessionOnly: true,
  v2: {
    response: notificationsReadSchema,
    params: z.object({
      ids: p.list(p.id(), { max: 500 }).optional(),
      all: p.bool().optional(),
    }),
    handler: async (ctx, input) => {
      if (!input.all && !input.ids?.length)
        throw invalid({ ids: "name the notifications, or pass all=true" });
      return { data: await markNotificationsRead(ctx, input.all ? { all: true } : { ids: input.ids ?? [] }) };
    },
  },
});
