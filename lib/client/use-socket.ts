"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { io, type Socket as IoSocket } from "socket.io-client";
import {
  socketEnvelopeSchema,
  subscribeAckSchema,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SubscribeAck,
} from "../contract/socket";
import { queryKeys } from "./query-keys";
import { dispatchRealtimeMessage } from "./realtime-dispatch";
import { onReadPosition, takeReadPosition } from "./read-position";
import { pollingOnly, rememberPollingOnly } from "./realtime-transport";
import { ThrottledRetries } from "./throttled-subscribe";

/** The panel's socket: what it sends and receives are the socket contract's (lib/contract/socket.ts). */
type Socket = IoSocket<ServerToClientEvents, ClientToServerEvents>;

export type SocketStatus =
  /** Nobody in the page needs the socket. */
  | "idle"
  | "connecting"
  | "connected"
  /** Lost the connection; socket.io is retrying by itself. */
  | "reconnecting"
  /** Refused or dropped by the server; we retry after a pause. */
  | "offline"
  /** The server refused the session (logged out or expired). */
  | "unauthorized"
  /** Connected, but the server keeps refusing the catch-up subscribe as too frequent; we retry with backoff. */
  | "throttled";

/**
 * What the panel does with a subscribe's ack. After a gap the cache may lack changes that no message will bring
 * any more, so every query is invalidated: those on screen refetch, the rest when next used.
 */
export function handleSubscribeAck(ack: SubscribeAck | undefined, queryClient: QueryClient | null): void {
  if (ack?.refused?.length) console.warn("realtime: channels refused", ack.refused);
  if (ack?.gap) void queryClient?.invalidateQueries();
}

const RETRY_AFTER_MS = 3000;
/**
 * How long a WebSocket may take to open before the panel gives up on it. A proxy that refuses the upgrade makes
 * socket.io try long-polling by itself, but one that takes the upgrade and passes nothing (or closes it before
 * the handshake) leaves it waiting; then only polling, for the rest of the tab's life.
 */
const WEBSOCKET_GRACE_MS = 4000;

function olderId(a: number | string | undefined, b: bigint | undefined): number | string | undefined {
  if (b === undefined) return a;
  if (a === undefined) return String(b);
  try {
    return b < BigInt(a) ? String(b) : a;
  } catch {
    return String(b);
  }
}

function newerId(a: number | string | undefined, b: number | string): number | string {
  if (a === undefined) return b;
  try {
    return BigInt(b) > BigInt(a) ? b : a;
  } catch {
    return b;
  }
}

/**
 * The panel's one socket.io connection, shared by every component that calls useSocket. It connects when the
 * first user mounts, disconnects when the last unmounts, re-subscribes after reconnecting (with `after`, so no
 * message is missed), and hands each message to dispatchRealtimeMessage.
 */
class SocketManager {
  socket: Socket | null = null;
  private status: SocketStatus = "idle";
  private listeners = new Set<() => void>();
  private users = 0;
  private queryClient: QueryClient | null = null;
  private channels = new Map<string, number>();
  private lastId: number | string | undefined;
  /** The live subscription's start (its ack's position); reads older than it were in flight as it began. */
  private live: bigint | undefined;
  private replaying: bigint | undefined;
  private releaseTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private websocketTimer: ReturnType<typeof setTimeout> | undefined;
  private throttled = new ThrottledRetries();

  getStatus = (): SocketStatus => this.status;

  onChange = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private setStatus(status: SocketStatus) {
    if (this.status === status) return;
    this.status = status;
    for (const l of this.listeners) l();
  }

  acquire(queryClient: QueryClient): () => void {
    this.users++;
    this.queryClient = queryClient;
    clearTimeout(this.releaseTimer);
    if (!this.socket) this.connect();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users--;
      // Deferred, so a remount (React strict mode, route change inside the panel) keeps the connection.
      if (this.users === 0) this.releaseTimer = setTimeout(() => this.teardown(), 0);
    };
  }

  /** Subscribes to channels for as long as the returned function is not called. */
  subscribe = (channels: string[]): (() => void) => {
    const fresh: string[] = [];
    for (const c of channels) {
      const n = this.channels.get(c) ?? 0;
      this.channels.set(c, n + 1);
      if (n === 0) fresh.push(c);
    }
    // From the last message seen, when there is one: a new channel's messages since then are replayed.
    if (fresh.length && this.socket?.connected) this.emitSubscribe(fresh, this.lastId);
    return () => {
      for (const c of channels) {
        const n = (this.channels.get(c) ?? 1) - 1;
        if (n <= 0) this.channels.delete(c);
        else this.channels.set(c, n);
      }
    };
  };

  private emitSubscribe(channels: string[], after: number | string | undefined) {
    const socket = this.socket;
    if (!socket || channels.length === 0) return;
    socket
      .timeout(10_000)
      .emit(
        "subscribe",
        after === undefined ? { channels } : { channels, after },
        (err: Error | null, answer: unknown) => {
          if (err) return;
          // An answer that is not an ack is taken as none: the subscribe is then as good as unanswered.
          const parsed = subscribeAckSchema.safeParse(answer);
          const ack = parsed.success ? parsed.data : undefined;
          if (this.throttled.retried(ack, () => this.resubscribe(channels, after))) {
            // Said in the indicator once it persists: one refusal is a short wait nobody needs to see.
            if (this.throttled.inARow >= 2 && this.status === "connected") this.setStatus("throttled");
            return;
          }
          if (this.throttled.cleared() && this.status === "throttled") this.setStatus("connected");
          handleSubscribeAck(ack, this.queryClient);
          if (typeof ack?.position === "number" && Number.isSafeInteger(ack.position)) {
            this.lastId = newerId(this.lastId, ack.position);
            this.live ??= BigInt(ack.position);
            onReadPosition((p) => this.readAt(p));
          }
        },
      );
  }

  /** A throttled subscribe again, for those of its channels still wanted. */
  private resubscribe(channels: string[], after: number | string | undefined) {
    if (!this.socket?.connected) return;
    this.emitSubscribe(
      channels.filter((c) => this.channels.has(c)),
      after,
    );
  }

  private connect() {
    clearTimeout(this.retryTimer);
    // WebSocket first (long-polling first costs the page's first load several requests), polling if it fails.
    const polling = pollingOnly();
    const socket: Socket = io({
      path: "/socket.io",
      withCredentials: true,
      autoConnect: false,
      transports: polling ? ["polling"] : ["websocket", "polling"],
      tryAllTransports: true,
    });
    this.socket = socket;
    this.setStatus("connecting");
    if (!polling) this.websocketTimer = setTimeout(() => this.fallBackToPolling(socket), WEBSOCKET_GRACE_MS);

    socket.on("connect", () => {
      clearTimeout(this.websocketTimer);
      this.throttled.reset();
      this.setStatus("connected");
      // From the last message seen or, on a first connection, from the page's first reads (read-position.ts).
      this.emitSubscribe([...this.channels.keys()], olderId(this.lastId, takeReadPosition()));
    });
    socket.on("connect_error", (err: Error) => {
      if (socket.active) {
        // A transport problem: socket.io retries with backoff.
        this.setStatus(this.status === "connected" ? "reconnecting" : this.status);
        return;
      }
      if (err.message === "AuthenticationFailed") {
        this.setStatus("unauthorized");
        // The session is probably gone: re-check it, the panel guard takes it from there.
        void this.queryClient?.invalidateQueries({ queryKey: queryKeys.auth.me() });
        return;
      }
      this.setStatus("offline");
      this.scheduleRetry();
    });
    socket.on("disconnect", (reason) => {
      this.endLive();
      if (reason === "io client disconnect") return;
      if (socket.active) {
        this.setStatus("reconnecting");
        return;
      }
      // The server closed it (for instance after a logout elsewhere).
      this.setStatus("offline");
      void this.queryClient?.invalidateQueries({ queryKey: queryKeys.auth.me() });
      this.scheduleRetry();
    });
    socket.on("message", (raw: unknown) => {
      const msg = socketEnvelopeSchema.safeParse(raw);
      if (!msg.success) return console.warn("realtime: ignored a message that is not one", raw);
      // Only logged messages have a position; typing and progress (null) are not replayed.
      if (msg.data.id !== null) this.lastId = newerId(this.lastId, msg.data.id);
      if (this.queryClient) dispatchRealtimeMessage(msg.data, { queryClient: this.queryClient });
    });

    socket.connect();
  }

  /** The WebSocket did not open in time: start again over long-polling only. */
  private fallBackToPolling(socket: Socket) {
    if (this.socket !== socket || socket.connected) return;
    rememberPollingOnly();
    socket.io.opts.transports = ["polling"];
    // A new engine with the new transports: disconnect() closes the manager's, connect() opens another.
    socket.disconnect();
    socket.connect();
  }

  /** An answer read at `p` arrived while subscribed: if it predates the subscription, replay from it (once). */
  private readAt(p: bigint) {
    if (this.live === undefined || p >= this.live || (this.replaying !== undefined && this.replaying <= p))
      return;
    this.replaying = p;
    this.emitSubscribe([...this.channels.keys()], String(p));
  }

  private endLive() {
    this.live = undefined;
    this.replaying = undefined;
    onReadPosition(undefined);
  }

  private scheduleRetry() {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (this.users > 0 && this.socket && !this.socket.connected) {
        this.setStatus("connecting");
        this.socket.connect();
      }
    }, RETRY_AFTER_MS);
  }

  private teardown() {
    if (this.users > 0) return;
    this.endLive();
    clearTimeout(this.retryTimer);
    clearTimeout(this.websocketTimer);
    this.throttled.reset();
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
    this.lastId = undefined;
    this.setStatus("idle");
  }
}

const manager = new SocketManager();

export interface UseSocketResult {
  status: SocketStatus;
  connected: boolean;
  /** The shared socket (null while idle). Prefer `subscribe` plus a handler in realtime-dispatch.ts. */
  socket: Socket | null;
  subscribe: (channels: string[]) => () => void;
}

/** The panel's live connection. Pass `enabled: false` until the operator is known to be logged in. */
export function useSocket({ enabled = true }: { enabled?: boolean } = {}): UseSocketResult {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return manager.acquire(queryClient);
  }, [enabled, queryClient]);
  const status = useSyncExternalStore(manager.onChange, manager.getStatus, () => "idle" as const);
  return { status, connected: status === "connected", socket: manager.socket, subscribe: manager.subscribe };
}
