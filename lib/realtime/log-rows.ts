import type { DefaultEventsMap, Server, Socket } from "socket.io";
import type { ServerToClientEvents, SocketEnvelope } from "../contract/socket";
import type { Identified } from "../auth/actor";

/** A row of the event log as the hub reads it (the tail and the replays). */
export interface LogRow {
  id: bigint;
  userId: bigint | null;
  channel: string;
  type: string;
  payload: unknown;
  created: Date;
}

/** What a socket receives for one of its channels (the id becomes a number on the wire). */
export type Message = Omit<SocketEnvelope, "id"> & { id: bigint };

export function toMessage(row: LogRow, channel: string): Message {
  return { id: row.id, channel, type: row.type, message: row.payload, time: row.created.getTime() / 1000 };
}

/** The message as it goes on the wire. */
export const onWire = (msg: Message): SocketEnvelope => ({ ...msg, id: Number(msg.id) });

export interface SocketData {
  /** Who a socket belongs to: an operator (through the session cookie) or an API token of one app. */
  actor: Identified["actor"];
  /** A visitor's last heartbeat (ms): presence in memory only, nothing stored. */
  seen?: number;
}

/**
 * Our socket.io server and its sockets: what they send is the contract's (lib/contract/socket.ts); what clients
 * send stays untyped, as anyone may send anything.
 */
export type RelayServer = Server<DefaultEventsMap, ServerToClientEvents, DefaultEventsMap, SocketData>;
export type RelaySocket = Socket<DefaultEventsMap, ServerToClientEvents, DefaultEventsMap, SocketData>;
