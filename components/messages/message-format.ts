import type { MessageKind, MessageStatus } from "@/lib/client/messages-types";
import { triggerSchema } from "@/lib/messages/schemas";

/** How the Messages pages name kinds, statuses and triggers, and write rates. */

export const KIND_LABEL: Record<MessageKind, string> = {
  chat: "Chat",
  popup: "Pop-up",
  email: "Email",
  bot: "Bot",
};

export const STATUS_LABEL: Record<MessageStatus, string> = {
  active: "Active",
  paused: "Paused",
  archived: "Archived",
};

export interface TriggerSummary {
  event: string;
  /** The page's URL pattern of a `$page_view`. */
  url?: string;
  /** The message whose event it is (a chain). */
  message?: string;
  /** Sent only to a visitor still on the page or the site when the delay ends. */
  stay?: "page" | "site";
}

/** A message's trigger as the list shows it; null when it is not the API's shape. */
export function triggerSummary(trigger: unknown): TriggerSummary | null {
  const t = triggerSchema.safeParse(trigger);
  if (!t.success) return null;
  return {
    event: t.data.event,
    ...(t.data.url ? { url: t.data.url } : {}),
    ...(t.data.message !== undefined ? { message: String(t.data.message) } : {}),
    ...(t.data.stay ? { stay: t.data.stay } : {}),
  };
}

/** `n` of `of` as a percentage with at most one decimal ("42.9%"); "—" when there is nothing to divide by. */
export function rate(n: number, of: number): string {
  if (!of) return "—";
  return `${Math.round((n / of) * 1000) / 10}%`;
}

/** The goal's lift in percentage points, signed ("+3.5 pp"); "—" without both groups. */
export function lift(pp: number | null): string {
  if (pp === null) return "—";
  return `${pp > 0 ? "+" : pp < 0 ? "−" : ""}${Math.abs(pp)} pp`;
}
