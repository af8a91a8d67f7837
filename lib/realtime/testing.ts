import type { Socket } from "socket.io-client";
import {
  eventOf,
  type EventOf,
  type EventPayload,
  type SocketEnvelope,
  type SubscribeAck,
} from "../contract/socket";
import type { TestSockets } from "../testing/server-test";

/**
 * Log rows of the contract's shapes for tests that need rows rather than the changes that write them (webhook
 * deliveries, retention, replays): the writers accept nothing else.
 */

/** A part on `conversation_reply.<app>`; `fields` override the defaults (a visitor's reply). */
export function partEvent(
  appId: bigint,
  fields: Partial<EventPayload<"conversation_reply">> = {},
): EventOf<"conversation_reply"> {
  return eventOf(
    "conversation_reply",
    { appId },
    {
      id: 1,
      created: 0,
      conversation: 1,
      body: "hi",
      read: false,
      direction: "u2a",
      type: "reply_user",
      sent_via: "api",
      reply_type: "text",
      edited: null,
      removed: null,
      external_id: null,
      part_group: 1,
      from: 1,
      random_id: 0,
      referrer: null,
      ...fields,
    },
  );
}

/** A user's tracked event on `event.<app>`, its props as given. */
export function userEvent(appId: bigint, props: Record<string, unknown> = {}): EventOf<"event"> {
  const type = { id: 1, name: "test", score: 0, visible: true };
  return eventOf("event", { appId }, { id: 1, created: 0, type, user: 1, props });
}

// Sockets of a test file's server (its `sockets` fixture), for the tests of delivery.

/** A message as a socket receives it (the contract's envelope), its payload read as M. */
export type Msg<M = Record<string, unknown>> = Omit<SocketEnvelope, "message"> & { message: M };

/** A socket of the file's server (refused as the server refuses it) and the messages it receives, in order. */
export async function listen(
  sockets: TestSockets,
  auth: { token?: string; cookie?: string },
): Promise<{ socket: Socket; got: Msg[] }> {
  const socket = await sockets.open(auth);
  const got: Msg[] = [];
  socket.on("message", (m: Msg) => got.push(m));
  return { socket, got };
}

/** Subscribes the socket to the channels (replaying from `after`, when given); resolves with the ack. */
export function subscribe(socket: Socket, channels: string[], after?: number) {
  return socket.emitWithAck("subscribe", { channels, after }) as Promise<SubscribeAck>;
}

/** Waits until `cond` holds, looking every 20 ms; fails naming `what` after `ms`. */
export async function until(cond: () => boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
