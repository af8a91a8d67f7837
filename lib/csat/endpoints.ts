import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { serializeRating } from "../conversations/csat-request";
import { getCsatSettings, updateCsatSettings } from "./settings";
import { getConversationRating, listUserRatings } from "./read";
import { reportCsat } from "./report";
import { conversationRatingSchema, csatReportSchema, csatSettingsSchema } from "./schemas";

// CSAT, new in v2: the app's setting, a conversation's rating, a user's ratings and the report.

export const getAppCsat = endpoint({
  method: "GET",
  path: "/apps/{id}/csat",
  summary: "Whether visitors are asked to rate the conversations an operator closes",
  tags: ["Settings"],
  scopes: ["conversations-read"],
  v2: {
    response: csatSettingsSchema,
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({ data: await getCsatSettings(ctx, { appId: input.id }) }),
  },
});

export const postAppCsat = endpoint({
  method: "POST",
  path: "/apps/{id}/csat",
  summary: "Turn asking visitors to rate closed conversations on or off",
  tags: ["Settings"],
  scopes: ["app-admin"],
  v2: {
    response: csatSettingsSchema,
    params: z.object({ id: p.appId(), enabled: p.bool().optional() }),
    handler: async (ctx, input) => ({
      data: await updateCsatSettings(ctx, { appId: input.id, enabled: input.enabled }),
    }),
  },
});

export const getConversationRatingEndpoint = endpoint({
  method: "GET",
  path: "/conversations/{id}/rating",
  summary: "The conversation's rating: asked when (null: never asked), and the visitor's score and comment",
  tags: ["Conversations"],
  scopes: ["conversations-read"],
  v2: {
    response: conversationRatingSchema.nullable(),
    params: z.object({ id: p.id() }),
    handler: async (ctx, input) => {
      const row = await getConversationRating(ctx, { conversationId: input.id });
      return { data: row ? serializeRating(row) : null };
    },
  },
});

export const getUserRatings = endpoint({
  method: "GET",
  path: "/apps/{id}/users/{user}/ratings",
  summary: "The user's latest conversation ratings, newest first",
  tags: ["Users"],
  scopes: ["conversations-read"],
  v2: {
    response: z.array(conversationRatingSchema),
    params: z.object({ id: p.appId(), user: p.id(), limit: p.int({ min: 1, max: 50 }).optional() }),
    handler: async (ctx, input) => ({
      data: (
        await listUserRatings(ctx, { appId: input.id, userId: input.user, limit: input.limit ?? 5 })
      ).map(serializeRating),
    }),
  },
});

export const getCsatReport = endpoint({
  method: "GET",
  path: "/apps/{id}/reports/csat",
  reads: "replica",
  summary:
    "CSAT: score (share of 4–5) and ratings per day, response rate, per closing operator, and comments newest first",
  tags: ["Reports"],
  scopes: ["conversations-read"],
  v2: {
    response: csatReportSchema,
    params: z.object({
      id: p.appId(),
      from: p.day(),
      to: p.day(),
      operator: p.id().optional(),
      channel: p.id().optional(),
    }),
    handler: async (ctx, input) => ({
      data: await reportCsat(ctx, {
        appId: input.id,
        from: input.from,
        to: input.to,
        operator: input.operator,
        channel: input.channel,
      }),
    }),
  },
});
