import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { text } from "../conversations/params";
import { rateByToken } from "./by-token";
import { visitorRating } from "./rate";
import { COMMENT_MAX, visitorRatingSchema } from "./schemas";

export const postEmailRating = endpoint({
  method: "POST",
  path: "/csat/rate",
  summary:
    "Rate a conversation with a rating email's link: `t` names the conversation and the score; `comment` adds one",
  tags: ["Email"],
  // The link is the credential, as an unsubscribe link's: an operator's cookie riding along must not refuse it.
  auth: "secret",
  ias: false,
  v2: {
    response: visitorRatingSchema,
    params: z.object({
      t: p.str({ min: 1, max: 100 }),
      comment: text({ max: COMMENT_MAX }).optional(),
    }),
    handler: async (ctx, input) => ({
      data: visitorRating(await rateByToken(ctx, { token: input.t, comment: input.comment })),
    }),
  },
});
