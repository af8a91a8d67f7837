import { io, type Socket } from "socket.io-client";
import type {
  ClientToServerEvents,
  MESSENGER_CHANNEL,
  MessengerMessage,
  MessengerServerEvents,
} from "../../lib/contract/socket";
import type { Api } from "./api";
import { frameMessage } from "./auto-messages";
import type { AutoMessage, Conversation, Part, Rating, VisitorConversation, VisitorPart } from "./types";
import { frameRating } from "./rating";

type Payload<T extends MessengerMessage["type"]> = Extract<MessengerMessage, { type: T }>["message"];

/**
 * What the visitor's `messenger` subscription carries (the socket contract, lib/contract/socket.ts), as the frame
 * holds it: its IDs as numbers.
 */
export type LiveEvent =
  | { type: "messenger_part"; part: Part }
  | { type: "messenger_typing"; conversation: number; admin: Payload<"messenger_typing">["admin"] }
  | { type: "messenger_read"; conversation: number; by: Payload<"messenger_read">["by"] }
  /** The conversation's summary, its unread count as of the change (later replies are counted as they come). */
  | { type: "messenger_conversation"; conversation: Conversation }
  /** A chat message or pop-up sent to the visitor. */
  | { type: "messenger_message"; message: AutoMessage }
  /** Who can answer changed (the heartbeat's answer, pushed). */
  | { type: "messenger_status"; online: boolean; opensAt: string | null }
  /** A rating asked (the card) or given. */
  | { type: "messenger_rating"; rating: Rating };

// The frame imports types only from the contract: its constants would bring zod into the bundle.
const CHANNEL: typeof MESSENGER_CHANNEL = "messenger";

/** Sockets send IDs as numbers (never id_as_string); the frame's types say so. */
const framePart = (p: VisitorPart): Part => ({
  ...p,
  id: Number(p.id),
  conversation: Number(p.conversation),
});
const frameConversation = (c: VisitorConversation): Conversation => ({
  ...c,
  id: Number(c.id),
  last_part: c.last_part && framePart(c.last_part),
});

/** Undefined for a type this frame does not know (a server newer than the page's bundle). */
function liveEvent(m: MessengerMessage): LiveEvent | undefined {
  switch (m.type) {
    case "messenger_part":
      return { type: m.type, part: framePart(m.message.part) };
    case "messenger_typing":
      return { type: m.type, conversation: Number(m.message.conversation), admin: m.message.admin };
    case "messenger_read":
      return { type: m.type, conversation: Number(m.message.conversation), by: m.message.by };
    case "messenger_conversation":
      return { type: m.type, conversation: frameConversation(m.message) };
    case "messenger_message":
      return { type: m.type, message: frameMessage(m.message) };
    case "messenger_status":
      return { type: m.type, online: m.message.operators_online, opensAt: m.message.opens_at };
    case "messenger_rating":
      return { type: m.type, rating: frameRating(m.message) };
    default:
      return undefined;
  }
}

/**
 * The frame's own socket (one per tab) to this origin, with the visitor's access token. It subscribes to
 * "messenger" from the last event position it has seen, so a reconnect replays what it missed; a reconnect asks
 * for the token at that moment (a refreshed one), and a refusal of the token refreshes it first.
 */
export function connectLive(api: Api, onEvent: (e: LiveEvent) => void, onState: (up: boolean) => void) {
  let after: number | undefined;
  const socket: Socket<MessengerServerEvents, ClientToServerEvents> = io({
    path: "/socket.io",
    transports: ["websocket"],
    auth: (cb) => cb({ token: api.token }),
  });
  socket.on("connect", () => {
    onState(true);
    socket.emit("subscribe", { channels: [CHANNEL], ...(after === undefined ? {} : { after }) }, (ack) => {
      if (after === undefined && typeof ack?.position === "number") after = ack.position;
    });
  });
  socket.on("disconnect", (reason) => {
    onState(false);
    // socket.io retries lost connections by itself, but not one the server closed; that server may be going away
    // (a drain, a revoked token): connect again, spread out, and the refused token path above takes it from there.
    if (reason === "io server disconnect") setTimeout(() => socket.connect(), 500 + Math.random() * 2500);
  });
  socket.on("connect_error", (err: Error) => {
    onState(false);
    if (err.message !== "AuthenticationFailed") return;
    // The token expired or was revoked: a new one, then connect again (socket.io does not retry a refusal).
    void api
      .refresh()
      .then(() => socket.connect())
      .catch(() => setTimeout(() => socket.connect(), 5000));
  });
  socket.on("message", (m) => {
    if (typeof m.id === "number") after = Math.max(after ?? 0, m.id);
    const e = liveEvent(m);
    if (e) onEvent(e);
  });
  return {
    /** A new token (auth, logout): the server binds a socket to the token it opened with. */
    reconnect() {
      socket.disconnect().connect();
    },
    close() {
      socket.close();
    },
  };
}
