import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import type { Ctx } from "../auth/context";
import { filtersDescription } from "../leads/filters-doc";
import { botSchema, botStatsSchema, botTemplateSchema } from "./schemas";
import { botStats } from "./stats";
import { BOT_KINDS, BOT_STATUSES, startSchema, type BotKind, type BotStatus } from "./steps";
import { botFigures, createBot, getBot, listBots, updateBot, type BotRow } from "./store";
import { botTemplates } from "./templates";

const TAGS = ["Bots"];
const one = { id: p.appId(), bot_id: p.id() };

const STEPS_DOC =
  "JSON array of steps, run from the first: " +
  '{"type": "text", "body"}; {"type": "buttons", "body", "buttons": [{"label", "steps": [...]}]} (each branch ' +
  'runs its steps, then what follows the buttons step); {"type": "ask", "body", "prop": "$email"|"$phone"|"$name"|' +
  'custom prop} (the answer is checked and set on the user); {"type": "tag", "target": "user"|"conversation", ' +
  '"tag"}; {"type": "assign", "admin"|"channel": ID}; {"type": "handover", "body"?}; {"type": "close", "body"?}. ' +
  'Each step may carry an "id" (1–40 of A-Z a-z 0-9 _ -); steps without one are named. The end of the tree hands over.';

const fields = {
  name: p.str({ min: 1, max: 255, trim: true }),
  kind: p.oneOf(BOT_KINDS).meta({
    description:
      "the conversation's assistant_type while the bot runs: lead_bot (qualifies), routing_bot (routes)",
  }),
  status: p.oneOf(BOT_STATUSES),
  start: p.json(startSchema).meta({
    description:
      'JSON {"when": "always"|"no_operator"|"office_hours"|"outside_office_hours"|"by_message"|"launcher"}: ' +
      "which visitors' first messages start the bot (no_operator: outside office hours, or no Available operator " +
      "is connected). by_message: none, a proactive message of kind bot opens the conversation; launcher: the " +
      "visitor's New conversation in the messenger opens it, with assistant_type widget_bot",
  }),
  audience: p.json(z.record(z.string(), z.unknown()).nullable()).meta({
    description: `Leads filters the visitor must match (null: everyone). ${filtersDescription()}`,
  }),
  sender: p
    .id({ allowZero: true })
    .meta({ description: "the operator the bot's messages come from; 0: the app itself" }),
  steps: p.json(z.array(z.unknown())).meta({ description: STEPS_DOC }),
};

const inputOf = (i: {
  name?: string;
  kind?: BotKind;
  status?: BotStatus;
  start?: z.infer<typeof startSchema>;
  audience?: unknown;
  sender?: bigint;
  steps?: unknown[];
}) => ({
  name: i.name,
  kind: i.kind,
  status: i.status,
  start: i.start,
  audience: i.audience,
  sender: i.sender === undefined ? undefined : i.sender === 0n ? null : i.sender,
  steps: i.steps,
});

const secs = (d: Date) => Math.floor(d.getTime() / 1000);

async function serializeBots(ctx: Ctx, rows: BotRow[]) {
  const figures = await botFigures(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((b) => ({
    id: b.id,
    app: b.appId,
    name: b.name,
    kind: b.kind as BotKind,
    status: b.status as BotStatus,
    start: b.start,
    audience: b.audience,
    sender: b.senderId,
    steps: b.steps,
    created: secs(b.created),
    updated: secs(b.updated),
    figures: figures.get(b.id)!,
  }));
}
const serializeOne = async (ctx: Ctx, row: BotRow) => (await serializeBots(ctx, [row]))[0]!;

export const getBots = endpoint({
  method: "GET",
  path: "/apps/{id}/bots",
  summary: "The app's bots (archived ones with status=archived), newest first, with how their runs went",
  tags: TAGS,
  scopes: ["bots"],
  v2: {
    response: z.array(botSchema),
    params: z.object({ id: p.appId(), status: fields.status.optional() }),
    handler: async (ctx, input) => ({
      data: await serializeBots(ctx, await listBots(ctx, { appId: input.id, status: input.status })),
    }),
  },
});

export const postBot = endpoint({
  method: "POST",
  path: "/apps/{id}/bots",
  summary:
    "Create a bot: it runs on a visitor's new conversation when its start rule and audience hold, and the conversation stays out of the Inbox (assistant_type) until it hands over",
  tags: TAGS,
  scopes: ["bots"],
  v2: {
    response: botSchema,
    params: z.object({
      id: p.appId(),
      name: fields.name,
      kind: fields.kind,
      steps: fields.steps,
      status: fields.status.optional(),
      start: fields.start.optional(),
      audience: fields.audience.optional(),
      sender: fields.sender.optional(),
    }),
    handler: async (ctx, input) => {
      const row = await createBot(ctx, {
        ...inputOf(input),
        name: input.name,
        kind: input.kind,
        steps: input.steps,
        appId: input.id,
      });
      return { data: await serializeOne(ctx, row) };
    },
  },
});

export const getOneBot = endpoint({
  method: "GET",
  path: "/apps/{id}/bots/{bot_id}",
  summary: "One bot",
  tags: TAGS,
  scopes: ["bots"],
  v2: {
    response: botSchema,
    params: z.object(one),
    handler: async (ctx, input) => ({
      data: await serializeOne(ctx, await getBot(ctx, { appId: input.id, botId: input.bot_id })),
    }),
  },
});

export const postOneBot = endpoint({
  method: "POST",
  path: "/apps/{id}/bots/{bot_id}",
  summary:
    "Change a bot (absent fields are kept); status pauses, resumes or archives it. Conversations it is running keep the steps they started with",
  tags: TAGS,
  scopes: ["bots"],
  v2: {
    response: botSchema,
    params: z.object({
      ...one,
      ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])),
    } as { [K in keyof typeof one]: (typeof one)[K] } & {
      [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
    }),
    handler: async (ctx, input) => {
      const row = await updateBot(ctx, { ...inputOf(input), appId: input.id, botId: input.bot_id });
      return { data: await serializeOne(ctx, row) };
    },
  },
});

export const getBotStats = endpoint({
  method: "GET",
  path: "/apps/{id}/bots/{bot_id}/stats",
  summary:
    "A bot's statistics: its runs by how they ended, per day they started (UTC), and per step (reached, waiting now)",
  tags: TAGS,
  scopes: ["bots"],
  v2: {
    response: botStatsSchema,
    params: z.object(one),
    handler: async (ctx, input) => ({ data: await botStats(ctx, { appId: input.id, botId: input.bot_id }) }),
  },
});

export const getBotTemplates = endpoint({
  method: "GET",
  path: "/apps/{id}/bot_templates",
  summary:
    "Bots to start from: a lead bot for when nobody is available, and a routing bot over the app's channels",
  tags: TAGS,
  scopes: ["bots"],
  v2: {
    response: z.array(botTemplateSchema),
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({ data: await botTemplates(ctx, { appId: input.id }) }),
  },
});
