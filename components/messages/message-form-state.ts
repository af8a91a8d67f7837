import { audienceOf, audienceToWrite } from "@/components/leads/audience";
import { EMPTY_FILTER } from "@/lib/client/lead-filters";
import type { Message, MessageKind, MessageStatus, MessageWrite } from "@/lib/client/messages-types";
import {
  contentSchemas,
  frequencySchema,
  goalSchema,
  scheduleSchema,
  triggerSchema,
} from "@/lib/messages/schemas";
import type { FilterGroup } from "@/lib/leads/filter-grammar";

/**
 * The message editor's state (strings, as inputs hold them) and its way to and from the API. A message read back
 * is parsed with the server's schemas; what is written is checked here only where the API could not say which
 * field is wrong (a number that is no number, an audience condition left without a value, which the Leads builder
 * would otherwise drop silently): the rest is the server's word.
 */

export interface MessageForm {
  name: string;
  kind: MessageKind;
  status: MessageStatus;
  /** The operator a chat message (and optionally an email) comes from: their ID, "" for none. */
  sender: string;
  /** Pop-up. */
  title: string;
  /** Email. */
  subject: string;
  /** Every kind's text, kept when the kind changes (a bot message has none: its bot speaks). */
  body: string;
  /** The bot a bot message starts: its ID, "" for none chosen. */
  bot: string;
  button: boolean;
  buttonLabel: string;
  buttonAction: "link" | "reply";
  buttonUrl: string;
  emailField: boolean;
  event: string;
  /** The URL pattern of a `$page_view` trigger. */
  url: string;
  /** The message whose event triggers this one (a chain), "" for any. */
  triggerMessage: string;
  /** Where the visitor must still be when the delay ends ("" anywhere): time on page or on site. */
  stay: "" | "page" | "site";
  timeout: string;
  again: boolean;
  days: string;
  controlPercent: string;
  goal: boolean;
  goalEvent: string;
  goalHours: string;
  goalStop: boolean;
  officeHours: boolean;
  window: boolean;
  windowFrom: string;
  windowTo: string;
  /** Leads filters, as the Leads builder holds them; no condition: everyone. */
  audience: FilterGroup;
}

export const PAGE_VIEW = "$page_view";
export const isMessageEvent = (event: string) => event.trim().startsWith("$message_");

export function newForm(sender: string): MessageForm {
  return {
    name: "",
    kind: "chat",
    status: "active",
    sender,
    title: "",
    subject: "",
    body: "",
    bot: "",
    button: false,
    buttonLabel: "",
    buttonAction: "link",
    buttonUrl: "",
    emailField: false,
    event: PAGE_VIEW,
    url: "",
    triggerMessage: "",
    stay: "",
    timeout: "0",
    again: false,
    days: "7",
    controlPercent: "0",
    goal: false,
    goalEvent: "",
    goalHours: "24",
    goalStop: false,
    officeHours: false,
    window: false,
    windowFrom: "09:00",
    windowTo: "18:00",
    audience: EMPTY_FILTER,
  };
}

/** A message as the editor shows it; what does not parse (never, from this server) starts as a new form's. */
export function toForm(m: Message, defaultSender = ""): MessageForm {
  const f = { ...newForm(defaultSender), name: m.name, kind: m.kind, status: m.status };
  const content = contentSchemas[m.kind].safeParse(m.content);
  if (content.success) {
    const c = content.data;
    if ("body" in c) f.body = c.body;
    if ("bot" in c) f.bot = String(c.bot);
    if ("sender" in c && c.sender !== undefined) f.sender = String(c.sender);
    else if (m.kind === "email") f.sender = "";
    if ("title" in c) {
      f.title = c.title;
      f.emailField = c.email_field ?? false;
      if (c.button) {
        f.button = true;
        f.buttonLabel = c.button.label;
        f.buttonAction = c.button.action;
        f.buttonUrl = c.button.url ?? "";
      }
    }
    if ("subject" in c) f.subject = c.subject;
  }
  const trigger = triggerSchema.safeParse(m.trigger);
  if (trigger.success) {
    f.event = trigger.data.event;
    f.url = trigger.data.url ?? "";
    f.triggerMessage = trigger.data.message === undefined ? "" : String(trigger.data.message);
    f.stay = trigger.data.stay ?? "";
  }
  f.timeout = String(m.timeout);
  const frequency = frequencySchema.safeParse(m.frequency);
  if (frequency.success && frequency.data.type === "again") {
    f.again = true;
    f.days = String(frequency.data.days);
  }
  f.controlPercent = String(m.control_percent);
  const goal = goalSchema.safeParse(m.goal);
  if (goal.success) {
    f.goal = true;
    f.goalEvent = goal.data.event;
    f.goalHours = String(goal.data.within_hours);
    f.goalStop = goal.data.stop ?? false;
  }
  const schedule = scheduleSchema.safeParse(m.schedule);
  if (schedule.success) {
    f.officeHours = schedule.data.office_hours ?? false;
    if (schedule.data.window) {
      f.window = true;
      f.windowFrom = schedule.data.window.from;
      f.windowTo = schedule.data.window.to;
    }
  }
  f.audience = audienceOf(m.audience);
  return f;
}

const WHOLE = /^\d+$/;

function contentOf(f: MessageForm): MessageWrite["content"] {
  if (f.kind === "chat") return { sender: f.sender, body: f.body };
  if (f.kind === "bot") return { bot: f.bot };
  if (f.kind === "email")
    return { subject: f.subject, body: f.body, ...(f.sender ? { sender: f.sender } : {}) };
  return {
    title: f.title,
    body: f.body,
    ...(f.button
      ? {
          button: {
            label: f.buttonLabel,
            action: f.buttonAction,
            ...(f.buttonAction === "link" && f.buttonUrl.trim() ? { url: f.buttonUrl.trim() } : {}),
          },
        }
      : {}),
    email_field: f.emailField,
  };
}

export type WriteResult = { ok: true; body: MessageWrite } | { ok: false; errors: Record<string, string> };

/** The API's body for the form, or the errors (keyed as the API keys them) of what cannot be sent. */
export function toWrite(f: MessageForm): WriteResult {
  const errors: Record<string, string> = {};
  const whole = (key: string, v: string, what: string) => {
    if (WHOLE.test(v.trim())) return Number(v.trim());
    errors[key] = `must be a whole number of ${what}`;
    return 0;
  };
  if (f.kind === "chat" && !f.sender) errors["content.sender"] = "choose the operator it comes from";
  if (f.kind === "bot" && !f.bot) errors["content.bot"] = "choose the bot that starts the conversation";
  const event = f.event.trim();
  const timeout = whole("timeout", f.timeout, "seconds");
  const days = f.again ? whole("frequency.days", f.days, "days") : 0;
  const controlPercent = whole("control_percent", f.controlPercent, "percent");
  const withinHours = f.goal ? whole("goal.within_hours", f.goalHours, "hours") : 0;
  if (isMessageEvent(event) && f.triggerMessage && !WHOLE.test(f.triggerMessage))
    errors["trigger.message"] = "must be a message ID";
  const audience = audienceToWrite(f.audience);
  if (!audience.ok) errors.audience = audience.error;
  if (Object.keys(errors).length) return { ok: false, errors };
  const trigger: MessageWrite["trigger"] = { event };
  if (event === PAGE_VIEW && f.url.trim()) trigger.url = f.url.trim();
  if (isMessageEvent(event) && f.triggerMessage) trigger.message = f.triggerMessage;
  // Staying on a page means the page of a page view; for another event the choice is left out, not refused.
  if (f.stay === "site" || (f.stay === "page" && event === PAGE_VIEW)) trigger.stay = f.stay;
  const schedule =
    f.officeHours || f.window
      ? {
          ...(f.officeHours ? { office_hours: true } : {}),
          ...(f.window ? { window: { from: f.windowFrom, to: f.windowTo } } : {}),
        }
      : null;
  return {
    ok: true,
    body: {
      name: f.name,
      kind: f.kind,
      status: f.status,
      content: contentOf(f),
      trigger,
      audience: audience.ok ? audience.audience : null,
      timeout,
      frequency: f.again ? { type: "again", days } : { type: "once" },
      schedule,
      goal: f.goal ? { event: f.goalEvent, within_hours: withinHours, stop: f.goalStop } : null,
      control_percent: controlPercent,
    },
  };
}
