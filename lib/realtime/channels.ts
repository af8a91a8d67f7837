import type { Scope } from "../auth/scopes";
import { canAccessApp, type Actor } from "../auth/context";

/** The real-time channels (after the service's RTS list): `<kind>.<app>`, many also `<kind>.<app>.<user>`. */
export const CHANNEL_KINDS = [
  "conversation",
  "conversation_started_user",
  "conversation_reply",
  "conversation_typing",
  "conversation_read",
  "conversation_assigned",
  "conversation_closed",
  "conversation_tag_added",
  "conversation_tag_deleted",
  // A bulk job's end (lib/bulk): transient, so that every panel reads the lists it changed again.
  "conversation_bulk",
  "user_presence_changed",
  "user_props_changed",
  "event",
  // `notification.<app>.<admin>`: one operator's own (lib/notifications/notify.ts).
  "notification",
  "admin_availability",
  // `bulk_job.<app>.<admin>`: the progress of the bulk jobs that operator started (lib/bulk).
  "bulk_job",
] as const;

export const MAX_CHANNELS_PER_SOCKET = 50;

interface ParsedChannel {
  kind: string;
  appId: bigint;
  userId?: bigint;
}

function parseChannel(name: unknown): ParsedChannel | undefined {
  if (typeof name !== "string" || name.length > 200) return undefined;
  const m = /^([a-z_]+)\.(\d{1,19})(?:\.(\d{1,19}))?$/.exec(name);
  if (!m?.[1] || !m[2] || !(CHANNEL_KINDS as readonly string[]).includes(m[1])) return undefined;
  return { kind: m[1], appId: BigInt(m[2]), ...(m[3] ? { userId: BigInt(m[3]) } : {}) };
}

/**
 * The scope a token needs to listen: a channel carries what the matching GET endpoints show, so it asks for the
 * same read scope (conversations' channels for conversations-read, users' presence, props and events for user-read).
 * Operators' availability goes with the conversations: it is who can take them.
 */
function scopeOf(kind: string): Scope {
  return kind.startsWith("conversation") || kind === "admin_availability"
    ? "conversations-read"
    : "user-read";
}

function mayListen(actor: Actor, ch: ParsedChannel): boolean {
  // The app's channels carry every visitor's conversations and notes: never a visitor's to hear.
  if (actor.kind === "visitor" || !canAccessApp(actor, ch.appId)) return false;
  // The third part of a notification or bulk_job channel is an operator, not a visitor: only that operator hears it.
  if (ch.kind === "notification" || ch.kind === "bulk_job")
    return actor.kind === "admin" && ch.userId === actor.adminId;
  return actor.kind !== "token" || actor.scopes.includes(scopeOf(ch.kind));
}

/** Whether `name` is a channel the actor may listen to. */
export function allowed(actor: Actor, name: unknown): boolean {
  const ch = parseChannel(name);
  return ch !== undefined && mayListen(actor, ch);
}

/** A channel name as an ack repeats it: whatever the client sent, as text and cut short. */
export const shown = (name: unknown) => String(name).slice(0, 200);

/** Every channel an event-log row is delivered on: its own, and its user-scoped twin when it names a user. */
export function channelsOf(row: { channel: string; userId: bigint | null }): string[] {
  const out = [row.channel];
  if (row.userId !== null && row.channel.split(".").length === 2) out.push(`${row.channel}.${row.userId}`);
  return out;
}

/** The channels whose rows can reach a subscription (for replay queries). */
export function sourcesOf(channel: string): string[] {
  const parts = channel.split(".");
  return parts.length === 3 ? [channel, `${parts[0]}.${parts[1]}`] : [channel];
}
