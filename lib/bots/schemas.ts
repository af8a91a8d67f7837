import { z } from "zod";
import { id, seconds, jsonValue } from "../contract/schemas";
import { BOT_KINDS, BOT_STATUSES } from "./steps";

/** The Bot object's figures: its runs since it was made, by how each ended. */
export const botFiguresSchema = z.strictObject({
  started: z.number(),
  running: z.number(),
  handed_over: z.number(),
  closed: z.number(),
  taken_over: z.number().meta({ description: "an operator answered before the bot was done" }),
});

/** A bot's statistics (GET /apps/{id}/bots/{bot_id}/stats): its runs by outcome, per day, and per step. */
export const botStatsSchema = z.strictObject({
  bot: id,
  runs: botFiguresSchema,
  days: z.array(
    z.strictObject({
      day: z
        .string()
        .meta({ description: "YYYY-MM-DD (UTC) the runs started; each counted by how it ended" }),
      ...botFiguresSchema.shape,
    }),
  ),
  steps: z.array(
    z.strictObject({
      step: z.string().meta({ description: "the step's ID, in the order of the bot's tree (depth first)" }),
      reached: z.number().meta({ description: "runs that reached the step" }),
      waiting: z.number().meta({ description: "runs waiting at it now for the visitor's answer" }),
    }),
  ),
});
export type BotStats = z.infer<typeof botStatsSchema>;

/** The Bot object (lib/bots/endpoints.ts). Browser-safe: the panel's types come from here. */
export const botSchema = z.strictObject({
  id,
  app: id,
  name: z.string(),
  kind: z.enum(BOT_KINDS),
  status: z.enum(BOT_STATUSES),
  start: jsonValue,
  audience: jsonValue.nullable(),
  sender: id.nullable(),
  steps: jsonValue,
  created: seconds,
  updated: seconds,
  figures: botFiguresSchema,
});
export type Bot = z.infer<typeof botSchema>;

/** A template a site owner starts a bot from (GET /apps/{id}/bot_templates). */
export const botTemplateSchema = z.strictObject({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(BOT_KINDS),
  start: jsonValue,
  steps: jsonValue,
});
export type BotTemplate = z.infer<typeof botTemplateSchema>;
