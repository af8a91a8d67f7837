import { z } from "zod";
import { actor, id, json, seconds } from "../contract/schemas";
import {
  MESSENGER_CHANNEL,
  parseChannel,
  socketEnvelopeSchema,
  type EventKind,
  type SocketEnvelope,
} from "../contract/socket";
import { conversationV2Schema } from "../conversations/schemas";
import { partSchema } from "../parts/schemas";
import { eventSchema, userShortSchema } from "../users/schemas";
import { presenceSchema } from "../user-model/schemas";
import { notificationSchema } from "../notifications/schemas";
import { adminAvailabilitySchema } from "../admins/schemas";
import { bulkJobSchema } from "../bulk/schemas";
import { visitorRealtimeSchemas } from "../messenger/visitor-realtime-schemas";
import { conversationRatingSchema } from "../csat/schemas";

/**
 * The socket contract: for each channel kind, the payload schema of each event type it carries (the API's own
 * objects where the payload is one: a conversation, a part, a notification...). Names, envelope, subscribe and ack:
 * lib/contract/socket.ts. Browser-safe (zod only): the panel parses what it receives with parseSocketMessage, the
 * messenger's frame imports the types only, and the writers are checked against these types through SocketEvent.
 */

/** What a conversation's system change carries: the conversation, and the part that tells of the change. */
const change = { conversation: id, part: partSchema };

export const SOCKET_SCHEMAS = {
  /** The conversation as it now is, after any change of it. */
  conversation: { conversation: conversationV2Schema },
  /** A conversation the visitor started (its `conversation` row follows it too). */
  conversation_started_user: { conversation_started_user: conversationV2Schema },
  /** Every new part, `random_id` included (the panel matches its optimistic part by it). */
  conversation_reply: { conversation_reply: partSchema },
  conversation_typing: {
    conversation_typing: z.strictObject({
      conversation: id,
      user: id,
      /** Empty: the visitor emptied their composer. */
      body: z.string(),
      /** The visitor by ID, or the operator. */
      from: z.union([id, actor]).nullable(),
      /** An operator writing a note: never shown to the visitor. */
      note: z.literal(true).optional(),
    }),
  },
  conversation_read: {
    conversation_read: z.strictObject({
      conversation: id,
      by: z.enum(["user", "admin"]),
      user: id,
      admin: id.nullable(),
    }),
  },
  conversation_assigned: {
    conversation_assigned: z.strictObject({ ...change, assignee: actor.nullable() }),
  },
  conversation_closed: {
    /** A reopening by a reply has no part of its own. */
    conversation_closed: z.strictObject({ ...change, part: partSchema.nullable(), closed: z.boolean() }),
  },
  conversation_tag_added: { conversation_tag_added: z.strictObject({ ...change, tag: z.string() }) },
  conversation_tag_deleted: { conversation_tag_deleted: z.strictObject({ ...change, tag: z.string() }) },
  /** A rating asked (`rating` null) or given (lib/csat). */
  conversation_rating: { conversation_rating: conversationRatingSchema },
  /** A bulk job's end, for every panel of the app. */
  conversation_bulk: { conversation_bulk: bulkJobSchema },
  user_presence_changed: {
    user_presence_changed: z.strictObject({
      id,
      app: id,
      user_id: z.string(),
      presence: presenceSchema,
      /** The page of an online or idle user; only the last heartbeat of one gone offline. */
      presence_details: z.strictObject({
        page_url: z.string().nullable().optional(),
        page_title: z.string().nullable().optional(),
        last_heartbeat: seconds.nullable(),
      }),
    }),
  },
  user_props_changed: {
    user_props_changed: z.strictObject({
      user: id,
      app: id,
      /** The changed props' new values; null for a deleted one. */
      props: json,
      email_status: z.enum(["subscribed", "unsubscribed"]).optional(),
    }),
  },
  event: { event: eventSchema },
  notification: { notification: notificationSchema },
  admin_availability: { admin_availability: adminAvailabilitySchema },
  /** The progress of a bulk job, for the operator who started it. */
  bulk_job: { bulk_job: bulkJobSchema },
  lead_created: { lead_created: userShortSchema },
  webhook_test: {
    webhook_test: z.strictObject({ webhook: id, nonce: z.string(), message: z.string() }),
  },
  [MESSENGER_CHANNEL]: visitorRealtimeSchemas,
} satisfies Record<EventKind | typeof MESSENGER_CHANNEL, Record<string, z.ZodType>>;

type Schemas = typeof SOCKET_SCHEMAS;
type Kind = keyof Schemas;
type Payloads = { [K in Kind]: { [T in keyof Schemas[K]]: z.infer<Schemas[K][T]> } };

declare module "../contract/socket" {
  // The payload types, merged into the interface every writer's SocketEvent reads.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface SocketPayloads extends Payloads {}
}

/** A message as the client reads it: the envelope, its channel's kind and app, and the payload of its type. */
export type SocketMessageOf<K extends Kind> = {
  [T in keyof Schemas[K] & string]: Omit<SocketEnvelope, "type" | "message"> & {
    kind: K;
    type: T;
    /** The channel's app; for `messenger`, none. */
    app: K extends typeof MESSENGER_CHANNEL ? undefined : string;
    message: Payloads[K][T];
  };
}[keyof Schemas[K] & string];

export type SocketMessage = { [K in Kind]: SocketMessageOf<K> }[Kind];

/** A received message checked against the contract, or why it is not one of it (envelope, channel, type, payload). */
export function parseSocketMessage(raw: unknown): { msg: SocketMessage } | { problem: string } {
  const envelope = socketEnvelopeSchema.safeParse(raw);
  return envelope.success ? readSocketMessage(envelope.data) : { problem: "not a message envelope" };
}

/** The payload of an envelope checked against its channel's kind and its type. */
export function readSocketMessage(e: SocketEnvelope): { msg: SocketMessage } | { problem: string } {
  const channel = e.channel === MESSENGER_CHANNEL ? undefined : parseChannel(e.channel);
  if (!channel && e.channel !== MESSENGER_CHANNEL) return { problem: `unknown channel ${e.channel}` };
  const kind: Kind = channel?.kind ?? MESSENGER_CHANNEL;
  const types: Record<string, z.ZodType> = SOCKET_SCHEMAS[kind];
  const schema = Object.hasOwn(types, e.type) ? types[e.type] : undefined;
  if (!schema) return { problem: `no type ${e.type} on ${kind}` };
  const message = schema.safeParse(e.message);
  if (!message.success) return { problem: `${e.channel} ${e.type}: ${z.prettifyError(message.error)}` };
  // The schema was chosen by this kind and type, so the parsed payload is theirs.
  return { msg: { ...e, kind, app: channel?.app, message: message.data } as SocketMessage };
}
