import type { Actor, Conversation, Part } from "@/lib/client/inbox/types";
import type { UserShort } from "@/lib/client/leads-types";

/** The visitor's name, else their email, else "Visitor #id". */
export function visitorName(user: UserShort | null | undefined, fallbackId?: string | number): string {
  const name = user?.props.$name;
  if (typeof name === "string" && name.trim()) return name.trim();
  const email = user?.props.$email;
  if (typeof email === "string" && email.trim()) return email.trim();
  return `Visitor #${user?.id ?? fallbackId ?? "?"}`;
}

/** The visitor's name when they gave one (saved replies' {{visitor_name}}): never an email or an ID. */
export function knownVisitorName(user: UserShort | null | undefined): string | null {
  const name = user?.props.$name;
  return typeof name === "string" && name.trim() ? name.trim() : null;
}

export function isActor(from: Part["from"]): from is Actor {
  return typeof from === "object" && from !== null;
}

/** One line for the list row: who wrote the newest message, and what. */
export function preview(c: Conversation, meId: string): string {
  const p = c.important_part_last ?? c.reply_last ?? c.part_last;
  if (!p) return "";
  const text = p.body.replace(/\s+/g, " ").trim() || (p.attachments?.length ? "Sent an attachment" : "");
  if (p.type === "note") return `Note: ${text}`;
  if (p.direction === "a2u") {
    const who = isActor(p.from) ? (String(p.from.id) === meId ? "You" : p.from.name) : "Operator";
    return `${who}: ${text}`;
  }
  return text;
}

export const PRESENCE_LABEL: Record<string, string> = {
  online: "Online",
  idle: "Idle",
  offline: "Offline",
};

export const PRESENCE_DOT: Record<string, string> = {
  online: "bg-emerald-500",
  idle: "bg-amber-400",
  offline: "bg-slate-300",
};
