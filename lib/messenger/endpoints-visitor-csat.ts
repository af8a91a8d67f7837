import { z } from "zod";
import { visitorOf } from "../auth/context";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { sqlOf } from "../db/sql";
import { text } from "../conversations/params";
import { rateConversation, ratingOf, visitorRating } from "../csat/rate";
import { COMMENT_MAX, visitorRatingSchema } from "../csat/schemas";
import { messengerCors, takeMessengerBudget } from "./endpoints-visitor-edge";
import { visitorConversation } from "./visitor-parts";

// A conversation's rating (CSAT) in the messenger: asked when an operator closed it (lib/csat), rated once.
const TAGS = ["Messenger (visitors)"];

export const getVisitorRating = endpoint({
  method: "GET",
  path: "/messenger/conversations/{id}/rating",
  summary: "The rating asked of one of the visitor's conversations (null: not asked) and the one given",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: visitorRatingSchema.nullable(),
    params: z.object({ id: p.id() }),
    handler: async (ctx, input) => {
      const conv = await visitorConversation(ctx, input.id);
      const row = await ratingOf(sqlOf(ctx.db), conv.id);
      return { data: row ? visitorRating(row) : null };
    },
  },
});

export const postVisitorRating = endpoint({
  method: "POST",
  path: "/messenger/conversations/{id}/rating",
  summary:
    "The visitor rates a conversation they were asked about, 1–5 with an optional comment; a second rating is " +
    "refused (ValidationError on `rating`)",
  tags: TAGS,
  cors: messengerCors,
  auth: "visitor",
  v2: {
    response: visitorRatingSchema,
    params: z.object({
      id: p.id(),
      rating: p.int({ min: 1, max: 5 }),
      comment: text({ max: COMMENT_MAX }).optional(),
    }),
    handler: async (ctx, input, req) => {
      const { userId } = visitorOf(ctx);
      await takeMessengerBudget(req, `v:${userId}`);
      const conv = await visitorConversation(ctx, input.id);
      const row = await rateConversation(ctx, {
        conversationId: conv.id,
        rating: input.rating,
        comment: input.comment,
        channel: "messenger",
      });
      return { data: visitorRating(row) };
    },
  },
});
