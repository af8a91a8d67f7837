import type { z } from "zod";
import type { BotKind, BotStatus, startSchema, Step } from "@/lib/bots/steps";
import type { Id } from "@/lib/contract/schemas";
import { appPath } from "./settings-types";

/**
 * Shapes of the bots' endpoints as the v2 API takes and returns them, from the schemas lib/bots declares (type
 * imports only). A Bot's `start`, `audience` and `steps` are `unknown` there: the panel parses them with the same
 * schemas (components/bots/bot-form-state.ts).
 */
export type { Bot, BotStats, BotTemplate } from "@/lib/bots/schemas";
export type { BotKind, BotStatus, BotWhen, Step, StepType } from "@/lib/bots/steps";

/** The list's status filter: the live bots (active and paused), or the archived ones. */
export type BotsView = "live" | "archived";

/** What a create or a full update sends. */
export interface BotWrite {
  name: string;
  kind: BotKind;
  status: BotStatus;
  start: z.input<typeof startSchema>;
  /** Leads filters; null: everyone. */
  audience: unknown;
  /** The operator the bot speaks as; 0: the app. */
  sender: Id;
  steps: Step[];
}

export const botsPath = (appId: string) => `${appPath(appId)}/bots`;
export const botPath = (appId: string, botId: string) => `${botsPath(appId)}/${encodeURIComponent(botId)}`;
export const botTemplatesPath = (appId: string) => `${appPath(appId)}/bot_templates`;
