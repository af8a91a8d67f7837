import type { Scope } from "../auth/scopes";
import { canAccessApp, type Actor } from "../auth/context";
import { parseChannel, type ChannelKind, type ParsedChannel } from "../contract/socket";

export const MAX_CHANNELS_PER_SOCKET = 50;

/**
 * The scope a token needs to listen: a channel carries what the matching GET endpoints show, so it asks for the
 * same read scope (conversations' channels for conversations-read, users' presence, props and events for user-read).
 * Operators' availability goes with the conversations: it is who can take them.
 */
function scopeOf(kind: ChannelKind): Scope {
  return kind.startsWith("conversation") || kind === "admin_availability"
    ? "conversations-read"
    : "user-read";
}

function mayListen(actor: Actor, ch: ParsedChannel): boolean {
  // The app's channels carry every visitor's conversations and notes: never a visitor's to hear.
  if (actor.kind === "visitor" || !canAccessApp(actor, BigInt(ch.app))) return false;
  // The third part of a notification or bulk_job channel is an operator, not a visitor: only that operator hears it.
  if (ch.kind === "notification" || ch.kind === "bulk_job")
    return actor.kind === "admin" && ch.admin !== undefined && BigInt(ch.admin) === actor.adminId;
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
