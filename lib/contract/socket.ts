import { z } from "zod";
import type { Serialized } from "./schemas";

/**
 * The socket contract's names and frames: the channel kinds, how a channel is named and read back, the envelope
 * every message travels in, and the subscribe and ack shapes. Browser-safe (zod only). The payload of each kind
 * and event type is declared in lib/realtime/contract.ts, with the domains' schemas; this module holds only what
 * every writer needs (they are in the domains, which that module imports) and the type each writer is checked by.
 */

/** The channels a socket may subscribe to (after the service's RTS list): `<kind>.<app>`, many also `.<user>`. */
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
  // A rating asked (rating null) or given (lib/csat).
  "conversation_rating",
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
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Event-log channels no socket may hear: webhooks alone read their rows. */
export const WEBHOOK_ONLY_KINDS = ["lead_created", "webhook_test"] as const;
/** Every kind of event-log channel. */
export type EventKind = ChannelKind | (typeof WEBHOOK_ONLY_KINDS)[number];

/** Kinds never stored: their messages go straight to the subscribers (lib/eventlog/append.ts publishTransient). */
export const TRANSIENT_KINDS = ["conversation_typing", "conversation_bulk", "bulk_job"] as const;
export type TransientKind = (typeof TRANSIENT_KINDS)[number];
export type LoggedKind = Exclude<EventKind, TransientKind>;

/** Kinds whose third part is an operator (only that operator listens), not the user the events are about. */
export const OPERATOR_KINDS = ["notification", "bulk_job"] as const;
export type OperatorKind = (typeof OPERATOR_KINDS)[number];

/** A visitor's one channel: its own conversations' events, visitor-shaped (lib/realtime/visitor-messages.ts). */
export const MESSENGER_CHANNEL = "messenger";

type AnyId = bigint | number | string;
/** A channel of `K`, as written and as subscribed to: the kind, then the app (and the user or operator). */
export type ChannelOf<K extends string> = `${K}.${string}`;

export const appChannel = <K extends EventKind>(kind: K, app: AnyId): ChannelOf<K> => `${kind}.${app}`;

/** The user-scoped twin of an app channel: that user's events only (the hub delivers a row on both). */
export const userChannel = <K extends Exclude<ChannelKind, OperatorKind>>(
  kind: K,
  app: AnyId,
  user: AnyId,
): ChannelOf<K> => `${kind}.${app}.${user}`;

export const operatorChannel = <K extends OperatorKind>(kind: K, app: AnyId, admin: AnyId): ChannelOf<K> =>
  `${kind}.${app}.${admin}`;

/** A subscribable channel's parts; the third one is a user, or the operator of an OPERATOR_KINDS channel. */
export type ParsedChannel =
  | { kind: Exclude<ChannelKind, OperatorKind>; app: string; user?: string }
  | { kind: OperatorKind; app: string; admin?: string };

const NAME = /^([a-z_]+)\.(\d{1,19})(?:\.(\d{1,19}))?$/;
const isKind = (s: string): s is ChannelKind => (CHANNEL_KINDS as readonly string[]).includes(s);
const isOperatorKind = (k: ChannelKind): k is OperatorKind =>
  (OPERATOR_KINDS as readonly string[]).includes(k);

/** A subscribable channel's name read back, or undefined for any other text. */
export function parseChannel(name: unknown): ParsedChannel | undefined {
  if (typeof name !== "string" || name.length > 200) return undefined;
  const [, kind, app, third] = NAME.exec(name) ?? [];
  if (!kind || !app || !isKind(kind)) return undefined;
  if (isOperatorKind(kind)) return { kind, app, ...(third ? { admin: third } : {}) };
  return { kind, app, ...(third ? { user: third } : {}) };
}

/**
 * The payload of each event type of each channel kind (`{[kind]: {[type]: payload}}`, JSON as sent), `messenger`
 * included. Empty here: lib/realtime/contract.ts merges its schemas' types in (declaration merging), since the
 * payloads are the domains' API objects and the domains, which write them, import this module.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SocketPayloads {}

type TypesOf<K extends keyof SocketPayloads> = keyof SocketPayloads[K] & string;

/** The payload of kind K's event type T (by default the one named after the kind), as JSON. */
export type SocketPayload<K extends string, T extends string = K> = K extends keyof SocketPayloads
  ? T extends keyof SocketPayloads[K]
    ? SocketPayloads[K][T]
    : never
  : never;

/** The payload as a writer hands it over: 64-bit IDs may still be bigints. */
export type EventPayload<K extends string, T extends string = K> = Serialized<SocketPayload<K, T>>;

/**
 * One event of kind K and type T (by default the one named after the kind) as a writer hands it to the event log
 * (withEvents' `emit`) or to the sockets (publishTransient): the channel of its kind and the payload of its type.
 */
export interface EventOf<K extends EventKind, T extends string = K> {
  appId: bigint;
  /** The visitor concerned: the event is then also delivered on `<channel>.<user>`. */
  userId?: bigint;
  channel: ChannelOf<K>;
  type: T;
  payload: EventPayload<K, T>;
}

/** Any event of the kinds K: the union of each kind's event types. */
export type SocketEvent<K extends EventKind = EventKind> = {
  [P in K]: { [T in TypesOf<P>]: EventOf<P, T> }[TypesOf<P>];
}[K];

/** An event of a kind with one event type, named after the kind (every kind but `messenger`'s). */
export const eventOf = <K extends EventKind>(
  kind: K,
  of: { appId: bigint; userId?: bigint },
  payload: EventPayload<K>,
): EventOf<K> => ({
  appId: of.appId,
  ...(of.userId === undefined ? {} : { userId: of.userId }),
  channel: appChannel(kind, of.appId),
  type: kind,
  payload,
});

/** What a visitor's `messenger` subscription receives: a type and its message. */
export type MessengerMessage = {
  [T in TypesOf<"messenger">]: { type: T; message: SocketPayloads["messenger"][T] };
}[TypesOf<"messenger">];

/** A `messenger` message as its envelope carries it. */
export type MessengerEnvelope = Omit<SocketEnvelope, "channel" | "type" | "message"> & {
  channel: typeof MESSENGER_CHANNEL;
} & MessengerMessage;

/** What a visitor's socket receives (the messenger's frame reads only these). */
export interface MessengerServerEvents {
  message: (m: MessengerEnvelope) => void;
}

/**
 * Every socket message (the socket.io event `message`): `id` is the event-log position to resume from (null for
 * what is not stored: typing, a bulk job's progress), `time` Unix seconds, `message` the payload of `type`.
 */
export const socketEnvelopeSchema = z.object({
  id: z.number().int().nullable(),
  channel: z.string(),
  type: z.string(),
  message: z.unknown(),
  time: z.number(),
});
export type SocketEnvelope = z.infer<typeof socketEnvelopeSchema>;

/** `emit("subscribe", request, ack)`: the channels, and from which event position to replay them. */
export const subscribeRequestSchema = z.object({
  channels: z.array(z.string()),
  after: z.union([z.number().int(), z.string().regex(/^\d+$/)]).optional(),
});
export type SubscribeRequest = z.infer<typeof subscribeRequestSchema>;

export const subscribeAckSchema = z.object({
  subscribed: z.array(z.string()),
  refused: z.array(z.string()),
  /** Live delivery starts after it: the subscription covers every event past it. */
  position: z.number().int().optional(),
  /** The replay from `after` is incomplete: retention purged messages up to `complete_after`. */
  gap: z.boolean().optional(),
  complete_after: z.number().int().optional(),
  /** Nothing was subscribed: a bad `after` (ValidationError), too many long replays lately (Throttled), a failure. */
  error: z.string().optional(),
  error_message: z.string().optional(),
  /** Seconds to wait before subscribing again, when the server says. */
  retry_after: z.number().optional(),
});
export type SubscribeAck = z.infer<typeof subscribeAckSchema>;

export const unsubscribeAckSchema = z.object({ unsubscribed: z.array(z.string()) });
export type UnsubscribeAck = z.infer<typeof unsubscribeAckSchema>;

/** The socket.io events each side sends (socket.io's typed `Server` and `Socket` take them). */
export interface ServerToClientEvents {
  message: (m: SocketEnvelope) => void;
}
export interface ClientToServerEvents {
  subscribe: (request: SubscribeRequest, ack: (r: SubscribeAck) => void) => void;
  unsubscribe: (request: { channels: string[] }, ack: (r: UnsubscribeAck) => void) => void;
  /** A visitor's messenger, every ~20 s: presence kept in memory. */
  heartbeat: (request: Record<string, never>, ack: (r: Record<string, never>) => void) => void;
}
