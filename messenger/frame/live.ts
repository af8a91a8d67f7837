import { io, type Socket } from "socket.io-client";
import type { Api } from "./api";
import type { Conversation, Part } from "./types";

/** What the visitor's "messenger" subscription carries (lib/messenger/visitor-realtime-schemas.ts). */
export type LiveEvent = {
  [K in keyof Messages]: { type: K; data: Messages[K] };
}[keyof Messages];

type Messages = {
  messenger_part: { conversation: number; part: Part };
  messenger_typing: { conversation: number; admin: { id: number; name: string } | null };
  messenger_read: { conversation: number; by: "admin" | "user" };
  /** The conversation's summary, its unread count as of the change (later replies are counted as they come). */
  messenger_conversation: Conversation;
};

/** The socket's envelope: `{id, channel: "messenger", type, message, time}`. */
interface Wire {
  id: number;
  type?: string;
  message: unknown;
}

/**
 * The frame's own socket (one per tab) to this origin, with the visitor's access token. It subscribes to
 * "messenger" from the last event position it has seen, so a reconnect replays what it missed; a reconnect asks
 * for the token at that moment (a refreshed one), and a refusal of the token refreshes it first.
 */
export function connectLive(api: Api, onEvent: (e: LiveEvent) => void, onState: (up: boolean) => void) {
  let after: number | undefined;
  const socket: Socket = io({
    path: "/socket.io",
    transports: ["websocket"],
    auth: (cb) => cb({ token: api.token }),
  });
  socket.on("connect", () => {
    onState(true);
    socket.emit(
      "subscribe",
      { channels: ["messenger"], ...(after === undefined ? {} : { after }) },
      (ack: { position?: number; error?: string }) => {
        if (after === undefined && typeof ack?.position === "number") after = ack.position;
      },
    );
  });
  socket.on("disconnect", () => onState(false));
  socket.on("connect_error", (err: Error) => {
    onState(false);
    if (err.message !== "AuthenticationFailed") return;
    // The token expired or was revoked: a new one, then connect again (socket.io does not retry a refusal).
    void api
      .refresh()
      .then(() => socket.connect())
      .catch(() => setTimeout(() => socket.connect(), 5000));
  });
  socket.on("message", (m: Wire) => {
    if (typeof m?.id === "number") after = Math.max(after ?? 0, m.id);
    if (typeof m?.type === "string" && m.type.startsWith("messenger_") && m.message)
      onEvent({ type: m.type, data: m.message } as LiveEvent);
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
