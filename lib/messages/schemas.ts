import { z } from "zod";
import { id, seconds, jsonValue } from "../contract/schemas";

/**
 * Proactive messages: the shapes of the API and of the stored JSON columns (the same; lib/messages/store.ts parses
 * what it reads back with them). Browser-safe (zod only): the panel's types come from here.
 */
export const MESSAGE_KINDS = ["chat", "popup", "email", "bot"] as const;
export const MESSAGE_STATUSES = ["active", "paused", "archived"] as const;
/** The user events a message writes, each with `{message, send}`: triggers of other messages (chains). */
export const MESSAGE_EVENTS = ["sent", "read", "clicked", "replied", "unsubscribed"] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];
export const messageEventName = (e: MessageEvent) => `$message_${e}`;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });
const adminId = z.coerce.bigint({ error: "must be an operator ID" });

export const chatContentSchema = z.strictObject({
  /** The operator the message comes from (name and avatar in the messenger, author of the conversation's part). */
  sender: adminId,
  body: text(5000),
});

export const popupContentSchema = z.strictObject({
  title: text(255),
  body: text(5000),
  button: z
    .strictObject({
      label: text(60),
      /** `link` opens `url`; `reply` sends the label as the visitor's reply (a conversation starts). */
      action: z.enum(["link", "reply"]),
      url: z
        .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
        .max(2048)
        .optional(),
    })
    .refine((b) => b.action !== "link" || b.url !== undefined, {
      error: "a link button needs its url",
      path: ["url"],
    })
    .optional(),
  /** A field asking for the visitor's address; what they enter is set as `$email`. */
  email_field: z.boolean().optional(),
});

export const emailContentSchema = z.strictObject({
  subject: text(255),
  body: text(20_000),
  sender: adminId.optional(),
});

/**
 * A bot that starts the conversation itself: when the send goes out, a conversation opens with the bot's first
 * steps and the bot runs it (its `assistant_type` the bot's kind) until it hands over.
 */
export const botContentSchema = z.strictObject({
  bot: z.coerce.bigint({ error: "must be a bot ID" }),
});

export const contentSchemas = {
  chat: chatContentSchema,
  popup: popupContentSchema,
  email: emailContentSchema,
  bot: botContentSchema,
} as const;

export const triggerSchema = z.strictObject({
  /**
   * Any event name: `$page_view`, `$session_start` (a visitor's first page after 30 minutes away), the site's own
   * `track` calls, or a message event (`$message_read`, …).
   */
  event: text(255),
  /** For `$page_view`: the page's URL must match (`*` any characters; case-insensitive). */
  url: text(2048).optional(),
  /** For a message event: only that message's (a chain). */
  message: z.coerce.bigint({ error: "must be a message ID" }).optional(),
  /**
   * When the timeout ends, sent only while the visitor is still on the page that triggered it (`page`, a
   * `$page_view` trigger) or still on the site (`site`): with the timeout, time on page and time on site.
   */
  stay: z.enum(["page", "site"], { error: 'must be "page" or "site"' }).optional(),
});

export const frequencySchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: z.literal("once") }),
    z.strictObject({
      type: z.literal("again"),
      days: z.int().min(1, { error: "must be at least 1" }).max(365, { error: "must be at most 365" }),
    }),
  ],
  { error: 'must be {"type": "once"} or {"type": "again", "days": N}' },
);

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "must be a time HH:MM" });

export const scheduleSchema = z.strictObject({
  /** Sent only while the app is open (Settings → Office hours); otherwise when it opens. */
  office_hours: z.boolean().optional(),
  /** Sent only between these local times of the app's time zone; otherwise at the next `from`. */
  window: z
    .strictObject({ from: hhmm, to: hhmm })
    .refine((w) => w.from !== w.to, { error: "must not start and end at the same time" })
    .optional(),
});

export const goalSchema = z.strictObject({
  event: text(255),
  /** A goal event counts within this long after the trigger. */
  within_hours: z
    .int()
    .min(1)
    .max(24 * 90),
  /** A goal event before the message is sent cancels it. */
  stop: z.boolean().optional(),
});

export type Trigger = z.infer<typeof triggerSchema>;
export type Frequency = z.infer<typeof frequencySchema>;
export type Schedule = z.infer<typeof scheduleSchema>;
export type Goal = z.infer<typeof goalSchema>;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

const figures = z.strictObject({
  sent: z.number(),
  read: z.number(),
  clicked: z.number(),
  replied: z.number(),
  unsubscribed: z.number(),
  goal: z.number(),
});

/** The Message object. */
export const messageSchema = z.strictObject({
  id,
  app: id,
  name: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  status: z.enum(MESSAGE_STATUSES),
  content: jsonValue,
  trigger: jsonValue,
  audience: jsonValue.nullable(),
  timeout: z.number().meta({ description: "seconds after the trigger" }),
  frequency: jsonValue,
  schedule: jsonValue.nullable(),
  goal: jsonValue.nullable(),
  control_percent: z.number(),
  created: seconds,
  updated: seconds,
  /** Counts since the message was made: the list's main figures. */
  figures,
});
export type Message = z.infer<typeof messageSchema>;

/** A message's statistics: exact counts, the control group's beside them, and per day. */
export const messageStatsSchema = z.strictObject({
  message: id,
  sent: figures,
  control: figures,
  /** Goal reached per user reached, message minus control (percentage points); null without a control group. */
  goal_lift: z.number().nullable(),
  days: z.array(
    z.strictObject({
      day: z.string().meta({ description: "YYYY-MM-DD (UTC)" }),
      sent: figures,
      control: figures,
    }),
  ),
});
export type MessageStats = z.infer<typeof messageStatsSchema>;
