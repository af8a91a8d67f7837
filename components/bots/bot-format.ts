import type { BotKind, BotStatus, BotWhen, StepType } from "@/lib/client/bots-types";

/** How the Bots pages name kinds, start rules, statuses and step types. */

export const KIND_LABEL: Record<BotKind, string> = { lead_bot: "Lead bot", routing_bot: "Routing bot" };

export const KIND_HINT: Record<BotKind, string> = {
  lead_bot:
    "Qualifies visitors: asks who they are (email, company…) while nobody answers, then hands over to the team.",
  routing_bot:
    "Routes conversations: asks what the visitor needs and puts the conversation with the right operator or channel.",
};

export const WHEN_LABEL: Record<BotWhen, string> = {
  always: "Every new conversation",
  no_operator: "When nobody can answer",
  office_hours: "During office hours",
  outside_office_hours: "Outside office hours",
  by_message: "Only from a message",
  launcher: "New conversation in the messenger",
};

export const WHEN_HINT: Record<BotWhen, string> = {
  always: "The bot answers each visitor's first message.",
  no_operator: "Outside office hours, or when no operator is Available and connected.",
  office_hours: "Only while the app is open (Settings → Office hours).",
  outside_office_hours: "Only while the app is closed (Settings → Office hours).",
  by_message:
    "No first message starts it: a message of kind Bot (Messages) opens the conversation, on its trigger.",
  launcher:
    "The visitor's New conversation in the messenger opens with the bot, before they write (listed as widget_bot).",
};

export const STATUS_LABEL: Record<BotStatus, string> = {
  active: "Active",
  paused: "Paused",
  archived: "Archived",
};

export const STEP_LABEL: Record<StepType, string> = {
  text: "Text",
  buttons: "Buttons",
  ask: "Question",
  tag: "Tag",
  assign: "Assign",
  handover: "Hand over",
  close: "Close",
};

/** What each step type does, for the "add a step" choices. */
export const STEP_HINT: Record<StepType, string> = {
  text: "The bot says something",
  buttons: "The visitor picks an answer; each has its own steps",
  ask: "The visitor types an email, phone, name or other detail",
  tag: "Tags the user or the conversation",
  assign: "Gives the conversation to an operator or a channel",
  handover: "Ends the bot: the team takes over",
  close: "Ends the bot and closes the conversation",
};

export const STEP_TYPES: readonly StepType[] = [
  "text",
  "buttons",
  "ask",
  "tag",
  "assign",
  "handover",
  "close",
];
