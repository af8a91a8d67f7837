import type { z } from "zod";
import {
  CHANNEL_KINDS,
  MESSENGER_CHANNEL,
  OPERATOR_KINDS,
  TRANSIENT_KINDS,
  type SocketEnvelope,
} from "../../contract/socket";
import { MAX_CHANNELS_PER_SOCKET } from "../../realtime/channels";
import { SOCKET_SCHEMAS } from "../../realtime/contract";
import { EXAMPLE_ORIGIN } from "../request";
import { schemaDoc, type SchemaDoc } from "./schema-doc";

/**
 * The real-time guide's model: every channel kind and event type with the payload schema the panel parses it with
 * (lib/realtime/contract.ts), so the documented payloads are the checked ones.
 */
export interface ChannelTypeDoc extends SchemaDoc {
  type: string;
  /** A whole message as the socket delivers it, with the example as its payload. */
  envelope: SocketEnvelope;
}

export interface ChannelDoc {
  kind: string;
  /** How a subscription names it. */
  names: string[];
  /** Not stored: `id` is null and a resume does not replay it. */
  transient: boolean;
  types: ChannelTypeDoc[];
}

const has = (list: readonly string[], k: string) => list.includes(k);

function typesOf(kind: keyof typeof SOCKET_SCHEMAS, channel: string): ChannelTypeDoc[] {
  const types: Record<string, z.ZodType> = SOCKET_SCHEMAS[kind];
  const transient = has(TRANSIENT_KINDS, kind);
  return Object.entries(types).map(([type, schema]) => {
    const doc = schemaDoc(schema);
    const envelope = { id: transient ? null : 1_207, channel, type, message: doc.example, time: 1715680800 };
    return { type, ...doc, envelope };
  });
}

export function channelDocs(): ChannelDoc[] {
  return CHANNEL_KINDS.map((kind) => {
    const operator = has(OPERATOR_KINDS, kind);
    return {
      kind,
      names: operator ? [`${kind}.<app>.<operator>`] : [`${kind}.<app>`, `${kind}.<app>.<user>`],
      transient: has(TRANSIENT_KINDS, kind),
      types: typesOf(kind, `${kind}.1`),
    };
  });
}

/** A visitor's one channel (the messenger's frame subscribes to it with the visitor's access token). */
export function messengerChannel(): ChannelDoc {
  return {
    kind: MESSENGER_CHANNEL,
    names: [MESSENGER_CHANNEL],
    transient: false,
    types: typesOf(MESSENGER_CHANNEL, MESSENGER_CHANNEL),
  };
}

export const MAX_CHANNELS = MAX_CHANNELS_PER_SOCKET;

export const CONNECT_EXAMPLE = `import { io } from "socket.io-client";

const socket = io("${EXAMPLE_ORIGIN}", { path: "/socket.io", auth: { token: "rly_…" } });
let position; // the last message's id: where to resume after a reconnection

socket.on("connect", () => {
  socket.emit(
    "subscribe",
    { channels: ["conversation_reply.1", "conversation_assigned.1"], ...(position ? { after: position } : {}) },
    (ack) => {
      if (ack.error) console.warn(ack.error, ack.error_message);
      if (ack.gap) console.warn("messages up to", ack.complete_after, "were purged: reload the lists");
    },
  );
});
socket.on("message", (m) => {
  if (m.id !== null) position = m.id;
  console.log(m.channel, m.type, m.message);
});`;
