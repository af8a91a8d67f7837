import type { z } from "zod";
import type {
  botContentSchema,
  chatContentSchema,
  emailContentSchema,
  frequencySchema,
  goalSchema,
  MessageKind,
  MessageStatus,
  popupContentSchema,
  scheduleSchema,
  triggerSchema,
} from "@/lib/messages/schemas";
import { appPath } from "./settings-types";

/**
 * Shapes of the proactive messages' endpoints as the v2 API takes and returns them: inferred from the schemas the
 * endpoints declare (type imports only). A Message's JSON columns are `unknown` there: the panel parses them with
 * the same schemas (components/messages/message-form-state.ts).
 */
export type { Message, MessageKind, MessageStats, MessageStatus } from "@/lib/messages/schemas";

/** The list's status filter: the live messages (active and paused), or the archived ones. */
export type MessagesView = "live" | "archived";

/** What a create or a full update sends (the API's input types: IDs as numbers or strings). */
export interface MessageWrite {
  name: string;
  kind: MessageKind;
  status: MessageStatus;
  content:
    | z.input<typeof chatContentSchema>
    | z.input<typeof popupContentSchema>
    | z.input<typeof emailContentSchema>
    | z.input<typeof botContentSchema>;
  trigger: z.input<typeof triggerSchema>;
  /** Leads filters; null: everyone. */
  audience: unknown;
  timeout: number;
  frequency: z.input<typeof frequencySchema>;
  schedule: z.input<typeof scheduleSchema> | null;
  goal: z.input<typeof goalSchema> | null;
  control_percent: number;
  /** Keep a message the server refused as a loop. */
  confirm_loop?: boolean;
}

export const messagesPath = (appId: string) => `${appPath(appId)}/messages`;
export const messagePath = (appId: string, messageId: string) =>
  `${messagesPath(appId)}/${encodeURIComponent(messageId)}`;
