import { z } from "zod";
import { id, seconds } from "../contract/schemas";

/** Browser-safe shapes of conversation ratings (CSAT): the setting, a rating, the report. */

export const RATING_CHANNELS = ["messenger", "email"] as const;
export type RatingChannel = (typeof RATING_CHANNELS)[number];

/** GET/POST /apps/{id}/csat. */
export const csatSettingsSchema = z.strictObject({
  app: id,
  enabled: z.boolean().describe("Visitors are asked to rate conversations an operator closes"),
});
export type CsatSettings = z.infer<typeof csatSettingsSchema>;

/**
 * A conversation's rating: asked at its first close by an operator, rated at most once. The event-log rows of kind
 * `conversation_rating` carry it (`rating` null: asked; set: rated, the `conversation.rated` webhook).
 */
export const conversationRatingSchema = z.strictObject({
  conversation: id,
  user: id,
  /** The operator who closed it: the per-operator figures count the rating for them. */
  admin: id.nullable(),
  requested: seconds,
  rating: z.number().int().min(1).max(5).nullable(),
  comment: z.string().nullable(),
  rated: seconds.nullable(),
  channel: z.enum(RATING_CHANNELS).nullable(),
});
export type ConversationRating = z.infer<typeof conversationRatingSchema>;

/** What the visitor sees of it (messenger and the email link's page). */
export const visitorRatingSchema = z.strictObject({
  conversation: id,
  rating: z.number().int().min(1).max(5).nullable(),
  comment: z.string().nullable(),
  rated: seconds.nullable(),
});
export type VisitorRating = z.infer<typeof visitorRatingSchema>;

export { RATING_FILTERS, type RatingFilter } from "../conversations/schemas";

export const COMMENT_MAX = 2000;

const share = z.number().nullable();
/**
 * GET /apps/{id}/reports/csat: ratings given in the range (score, series by day, comments) and requests made in it
 * (response rate: those of them rated so far). The operator filter is the operator who closed (asked).
 */
export const csatReportSchema = z.strictObject({
  time_zone: z.string(),
  from: z.string(),
  to: z.string(),
  operator: id.nullable(),
  channel: id.nullable(),
  /** Share of 4–5 among ratings; null without ratings. */
  score: share,
  ratings: z.number().int(),
  good: z.number().int(),
  requests: z.number().int(),
  /** Of the requests made in the range, the share rated; null without requests. */
  response_rate: share,
  series: z.array(
    z.strictObject({ day: z.string(), ratings: z.number().int(), good: z.number().int(), score: share }),
  ),
  operators: z.array(
    z.strictObject({
      admin: id,
      name: z.string(),
      requests: z.number().int(),
      ratings: z.number().int(),
      good: z.number().int(),
      score: share,
    }),
  ),
  /** Newest first, at most 50. */
  comments: z.array(
    z.strictObject({
      conversation: id,
      rating: z.number().int(),
      comment: z.string(),
      rated: seconds,
      user: z.strictObject({ id, name: z.string().nullable(), email: z.string().nullable() }),
    }),
  ),
});
export type CsatReport = z.infer<typeof csatReportSchema>;
