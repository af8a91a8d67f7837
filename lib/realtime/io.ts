import type http from "node:http";
import { Server } from "socket.io";
import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import type { Runtime } from "../server/runtime";
import { isApiError, toApiError } from "../api/errors";
import { clientAddress } from "../api/client-address";
import { isDomainError } from "../domain/errors";
import type { Hub } from "./hub";
import { deploymentName } from "../db/deployment";
import { identify } from "../auth/actor";
import type { RelayServer } from "./log-rows";
import type { SubscribeAck, UnsubscribeAck } from "../contract/socket";
import { forgetAllOperatorsOnline } from "../admins/operators-seen";
import { adminRoom, sessionRoom, apiKeyRoom, visitorRoom, familyRoom } from "../auth/disconnect";

export interface IoHandle {
  io: RelayServer;
  redisStatus(): "off" | "connected" | "down";
  /**
   * Closes this instance's connections, not with a socket.io disconnect (after which clients stay away) but as a
   * lost connection: clients reconnect (behind a balancer, to another instance) and replay from their last
   * position. In batches, so that they do not all land at once.
   */
  handOff(): Promise<void>;
  close(): Promise<void>;
}

/** Connections closed per tick of a hand-off: a few thousand reconnect over a few hundred milliseconds. */
const HAND_OFF_BATCH = 250;
const HAND_OFF_TICK_MS = 50;

export async function attachIo(
  server: http.Server,
  rt: Pick<Runtime, "db" | "badTokens" | "trustedProxies">,
  opts: { redisUrl: string | undefined; instanceName: string | undefined },
  hub: Hub,
): Promise<IoHandle> {
  const { redisUrl, instanceName } = opts;
  const io: RelayServer = new Server(server, {
    path: "/socket.io",
    serveClient: false,
    cors: { origin: false },
  });
  if (instanceName) {
    // A long-polling client's requests must reach the instance holding its session: the balancer reads the
    // instance from the session ID every request after the handshake carries (docs/deploy.md).
    const generate = io.engine.generateId.bind(io.engine);
    io.engine.generateId = async (req) => `${instanceName}.${await generate(req)}`;
  }
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
        address: clientAddress(
          socket.handshake.address,
          socket.handshake.headers["x-forwarded-for"],
          rt.trustedProxies,
        ),
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
    // An operator's panel opening or closing changes who can answer: the messenger's next reading asks anew.
    if (actor.kind === "admin") {
      forgetAllOperatorsOnline();
      socket.on("disconnect", forgetAllOperatorsOnline);
    }
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

  const handOff = async () => {
    const clients = [...new Set([...io.sockets.sockets.values()].map((socket) => socket.conn))];
    for (let i = 0; i < clients.length; i += HAND_OFF_BATCH) {
      if (i > 0) await new Promise((r) => setTimeout(r, HAND_OFF_TICK_MS));
      for (const c of clients.slice(i, i + HAND_OFF_BATCH)) c.close();
    }
  };

  return {
    io,
    redisStatus: () =>
      !pub ? "off" : pub.status === "ready" && sub?.status === "ready" ? "connected" : "down",
    handOff,
    close: async () => {
      // Not io.disconnectSockets(): with the Redis adapter it disconnects every instance's sockets, for good.
      await handOff();
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
