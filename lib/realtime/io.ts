import type http from "node:http";
import { Server } from "socket.io";
import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import type { Runtime } from "../server/runtime";
import { isApiError, toApiError } from "../api/errors";
import { isDomainError } from "../domain/errors";
import type { Hub } from "./hub";
import { deploymentName } from "../db/deployment";
import { identify } from "../auth/actor";
import type { RelayServer } from "./log-rows";
import type { SubscribeAck, UnsubscribeAck } from "../contract/socket";
import { adminRoom, sessionRoom, apiKeyRoom, visitorRoom, familyRoom } from "../auth/disconnect";

export interface IoHandle {
  io: RelayServer;
  redisStatus(): "off" | "connected" | "down";
  close(): Promise<void>;
}

export async function attachIo(
  server: http.Server,
  rt: Pick<Runtime, "db" | "badTokens">,
  redisUrl: string | undefined,
  hub: Hub,
): Promise<IoHandle> {
  const io: RelayServer = new Server(server, {
    path: "/socket.io",
    serveClient: false,
    cors: { origin: false },
  });
  let pub: Redis | undefined;
  let sub: Redis | undefined;
  if (redisUrl) {
    ({ pub, sub } = adapterClients(redisUrl));
    // Broadcasts (typing) travel on channels named after the deployment.
    io.adapter(createAdapter(pub, sub, { key: `socket.io#${await deploymentName(rt.db)}` }));
  }

  io.use((socket, next) => {
    void (async () => {
      const auth = socket.handshake.auth as { token?: unknown };
      const who = await identify(rt, {
        token: typeof auth.token === "string" ? auth.token : undefined,
        cookies: socket.handshake.headers.cookie,
        address: socket.handshake.address,
        // Sockets have no API version: an access token opens one as its API key would.
        jwt: true,
        visitor: true,
      });
      // Every kind of token opens a socket: none is of the wrong kind here.
      if (!who || "wrongKind" in who) return next(new Error("AuthenticationFailed"));
      socket.data.actor = who.actor;
      next();
    })().catch((err: unknown) => {
      // A refusal (Throttled: too many unknown tokens from this address) reaches the client by name with its
      // headers (Retry-After); anything else, an outage included, is an InternalError.
      if (!isApiError(err) && !isDomainError(err)) return next(new Error("InternalError"));
      const refusal = toApiError(err, socket.id);
      next(Object.assign(new Error(refusal.errorName), { data: refusal.headers }));
    });
  });

  hub.attach(io);
  io.on("connection", (socket) => {
    const actor = socket.data.actor;
    void socket.join(
      actor.kind === "admin"
        ? [sessionRoom(actor.sessionId), adminRoom(actor.adminId)]
        : actor.kind === "visitor"
          ? [visitorRoom(actor.userId), familyRoom(actor.family)]
          : apiKeyRoom(actor.apiKeyId),
    );
    socket.on("subscribe", (payload: unknown, ack?: unknown) => {
      const p = (payload ?? {}) as { channels?: unknown; after?: unknown };
      void hub
        .subscribe(socket, actor, p.channels ?? [], p.after)
        .then((r) => answer<SubscribeAck>(ack, r))
        .catch((err: unknown) => {
          console.error("subscribe failed", err);
          answer<SubscribeAck>(ack, { subscribed: [], refused: [], error: "InternalError" });
        });
    });
    socket.on("unsubscribe", (payload: unknown, ack?: unknown) => {
      const done = hub.unsubscribe(socket, (payload as { channels?: unknown } | undefined)?.channels ?? []);
      answer<UnsubscribeAck>(ack, { unsubscribed: done });
    });
    if (actor.kind === "visitor") {
      // The frame's beat every ~20 s, until POST /messenger/heartbeat carries it (and the page) to the database.
      socket.on("heartbeat", (_payload: unknown, ack?: unknown) => {
        socket.data.seen = Date.now();
        answer(ack, {});
      });
    }
    socket.on("disconnect", () => hub.remove(socket));
  });

  return {
    io,
    redisStatus: () =>
      !pub ? "off" : pub.status === "ready" && sub?.status === "ready" ? "connected" : "down",
    close: async () => {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => {
        void io.close(() => resolve());
      });
      // The adapter's subscriptions wait in the clients' queues until Redis answers; closed before that, they
      // would reject where nothing catches them. A server closed right after it started waits (briefly) for them.
      await Promise.all([pub, sub].flatMap((c) => (c ? [settle(c)] : [])));
      pub?.disconnect();
      sub?.disconnect();
    },
  };
}

/** Answers with the contract's shape, when the client asked for an answer (what clients send is untyped). */
function answer<T>(ack: unknown, r: T): void {
  if (typeof ack === "function") (ack as (r: T) => void)(r);
}

/**
 * The adapter's two Redis clients. The subscriber connects only when the adapter subscribes: ioredis writes a
 * SUBSCRIBE at once when the connection is open but not yet ready, which puts the client in subscriber mode, so
 * its ready check (INFO) is refused, it reconnects, and, never having been ready, it does not subscribe again. An
 * instance that created its adapter in that window (a few ms, as its startup query finished) never heard another
 * instance's broadcasts. Connecting lazily, the subscriptions wait in the offline queue until the client is ready.
 */
export function adapterClients(redisUrl: string): { pub: Redis; sub: Redis } {
  // Retry forever with a capped delay: after Redis restarts, delivery resumes by itself.
  const opts = { maxRetriesPerRequest: null, retryStrategy: (n: number) => Math.min(n * 200, 2000) };
  const pub = new Redis(redisUrl, opts);
  const sub = pub.duplicate({ lazyConnect: true });
  pub.on("error", () => undefined);
  sub.on("error", () => undefined);
  return { pub, sub };
}

function settle(client: Redis): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, 2000);
    client.once("ready", done);
  });
}
