import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import type { Ctx } from "../auth/context";
import { filtersDescription } from "../leads/filters-doc";
import {
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
  frequencySchema,
  goalSchema,
  messageSchema,
  messageStatsSchema,
  scheduleSchema,
  triggerSchema,
} from "./schemas";
import { createMessage, duplicateMessage, getMessage, listMessages, updateMessage } from "./store";
import type { MessageRow } from "./spec";
import { messageStats, messageTotals } from "./stats";

const TAGS = ["Messages"];
const one = { id: p.appId(), message_id: p.id() };

/** The fields of a create and an update (an update's are all optional). */
const fields = {
  name: p.str({ min: 1, max: 255, trim: true }),
  kind: p.oneOf(MESSAGE_KINDS),
  status: p.oneOf(MESSAGE_STATUSES),
  content: p.json(z.record(z.string(), z.unknown(), { error: "must be an object" })).meta({
    description:
      'JSON by kind. chat: {"sender": operator ID, "body"}; popup: {"title", "body", "button"?: {"label", ' +
      '"action": "link"|"reply", "url"?}, "email_field"?: bool}; email: {"subject", "body", "sender"?}; ' +
      'bot: {"bot": bot ID}, a conversation opens with the bot\'s first steps and the bot runs it (a paused bot ' +
      "sends nothing)",
  }),
  trigger: p.json(triggerSchema).meta({
    description:
      'JSON {"event": name ($page_view, $session_start, a tracked event, a message event), "url"?: pattern with * ' +
      '(of the event\'s url), "message"?: ID (for a message event: $message_sent, $message_read, $message_clicked, ' +
      '$message_replied, $message_unsubscribed), "stay"?: "page" (a $page_view\'s page) or "site": sent only if ' +
      "the visitor is still there when the timeout ends}",
  }),
  audience: p.json(z.record(z.string(), z.unknown()).nullable()).meta({
    description: `Leads filters (null: everyone), checked again when the message fires. ${filtersDescription()}`,
  }),
  timeout: p
    .int({ min: 0, max: 30 * 86_400 })
    .meta({ description: "seconds between the trigger and the send" }),
  frequency: p
    .json(frequencySchema)
    .meta({ description: '{"type": "once"} or {"type": "again", "days": N}' }),
  schedule: p
    .json(scheduleSchema.nullable())
    .meta({ description: '{"office_hours"?: bool, "window"?: {"from": "HH:MM", "to": "HH:MM"}} or null' }),
  goal: p
    .json(goalSchema.nullable())
    .meta({ description: '{"event", "within_hours", "stop"?: bool} or null' }),
  control_percent: p.int({ min: 0, max: 50 }).meta({ description: "share of the audience held back, 0–50" }),
  confirm_loop: p.bool().meta({ description: "keep a message that triggers itself within 30 seconds" }),
};

const inputOf = (i: {
  name?: string;
  kind?: (typeof MESSAGE_KINDS)[number];
  status?: (typeof MESSAGE_STATUSES)[number];
  content?: unknown;
  trigger?: z.infer<typeof triggerSchema>;
  audience?: unknown;
  timeout?: number;
  frequency?: z.infer<typeof frequencySchema>;
  schedule?: z.infer<typeof scheduleSchema> | null;
  goal?: z.infer<typeof goalSchema> | null;
  control_percent?: number;
  confirm_loop?: boolean;
}) => ({
  name: i.name,
  kind: i.kind,
  status: i.status,
  content: i.content,
  trigger: i.trigger,
  audience: i.audience,
  timeoutSeconds: i.timeout,
  frequency: i.frequency,
  schedule: i.schedule,
  goal: i.goal,
  controlPercent: i.control_percent,
  confirmLoop: i.confirm_loop,
});

const secs = (d: Date) => Math.floor(d.getTime() / 1000);

async function serializeMessages(ctx: Ctx, rows: MessageRow[]) {
  const totals = await messageTotals(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((m) => ({
    id: m.id,
    app: m.appId,
    name: m.name,
    kind: m.kind as (typeof MESSAGE_KINDS)[number],
    status: m.status as (typeof MESSAGE_STATUSES)[number],
    content: m.content,
    trigger: m.trigger,
    audience: m.audience,
    timeout: m.timeoutSeconds,
    frequency: m.frequency,
    schedule: m.schedule,
    goal: m.goal,
    control_percent: m.controlPercent,
    created: secs(m.created),
    updated: secs(m.updated),
    figures: totals.get(m.id)!.sent,
  }));
}
const serializeOne = async (ctx: Ctx, row: MessageRow) => (await serializeMessages(ctx, [row]))[0]!;

export const getMessages = endpoint({
  method: "GET",
  path: "/apps/{id}/messages",
  summary:
    "The app's proactive messages (archived ones with status=archived), newest first, with their figures",
  tags: TAGS,
  scopes: ["messages"],
  v2: {
    response: z.array(messageSchema),
    params: z.object({ id: p.appId(), status: fields.status.optional() }),
    handler: async (ctx, input) => ({
      data: await serializeMessages(ctx, await listMessages(ctx, { appId: input.id, status: input.status })),
    }),
  },
});

export const postMessage = endpoint({
  method: "POST",
  path: "/apps/{id}/messages",
  summary:
    "Create a proactive message: sent to the users its trigger selects, after its timeout, if its audience holds",
  tags: TAGS,
  scopes: ["messages"],
  v2: {
    response: messageSchema,
    params: z.object({
      id: p.appId(),
      name: fields.name,
      kind: fields.kind,
      content: fields.content,
      trigger: fields.trigger,
      status: fields.status.optional(),
      audience: fields.audience.optional(),
      timeout: fields.timeout.optional(),
      frequency: fields.frequency.optional(),
      schedule: fields.schedule.optional(),
      goal: fields.goal.optional(),
      control_percent: fields.control_percent.optional(),
      confirm_loop: fields.confirm_loop.optional(),
    }),
    handler: async (ctx, input) => {
      const row = await createMessage(ctx, { ...inputOf(input), ...input, appId: input.id });
      return { data: await serializeOne(ctx, row) };
    },
  },
});

export const getOneMessage = endpoint({
  method: "GET",
  path: "/apps/{id}/messages/{message_id}",
  summary: "One proactive message",
  tags: TAGS,
  scopes: ["messages"],
  v2: {
    response: messageSchema,
    params: z.object(one),
    handler: async (ctx, input) => ({
      data: await serializeOne(ctx, await getMessage(ctx, { appId: input.id, messageId: input.message_id })),
    }),
  },
});

export const postOneMessage = endpoint({
  method: "POST",
  path: "/apps/{id}/messages/{message_id}",
  summary:
    "Change a message (absent fields are kept); status pauses, resumes or archives it. Users it was sent to are not sent it again",
  tags: TAGS,
  scopes: ["messages"],
  v2: {
    response: messageSchema,
    params: z.object({
      ...one,
      ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])),
    } as { [K in keyof typeof one]: (typeof one)[K] } & {
      [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
    }),
    handler: async (ctx, input) => {
      const row = await updateMessage(ctx, {
        ...inputOf(input),
        appId: input.id,
        messageId: input.message_id,
      });
      return { data: await serializeOne(ctx, row) };
    },
  },
});

export const postDuplicateMessage = endpoint({
  method: "POST",
  path: "/apps/{id}/messages/{message_id}/duplicate",
  summary: "A paused copy of a message, its figures from nothing",
  tags: TAGS,
  scopes: ["messages"],
  v2: {
    response: messageSchema,
    params: z.object(one),
    handler: async (ctx, input) => ({
      data: await serializeOne(
        ctx,
        await duplicateMessage(ctx, { appId: input.id, messageId: input.message_id }),
      ),
    }),
  },
});

export const getMessageStats = endpoint({
  method: "GET",
  path: "/apps/{id}/messages/{message_id}/stats",
  summary:
    "A message's statistics: exact counts of its events, the control group's, the goal's lift, and per day (UTC)",
  tags: TAGS,
  scopes: ["messages"],
  v2: {
    response: messageStatsSchema,
    params: z.object(one),
    handler: async (ctx, input) => {
      await getMessage(ctx, { appId: input.id, messageId: input.message_id });
      return { data: await messageStats(ctx, { appId: input.id, messageId: input.message_id }) };
    },
  },
});
