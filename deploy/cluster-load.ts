import { io as connect, type Socket } from "socket.io-client";
import type { Db } from "../lib/db/client";
import { issueTokenPair } from "../lib/auth/refresh-tokens";
import { makeApp, makeToken } from "../lib/testing/factories";

/**
 * The load a cluster runs under (deploy/cluster.api.test.ts, bench/cluster.ts): visitors whose sockets go through
 * the balancer and reconnect as the messenger does (subscribing again after the last event they saw), an operator
 * replying to some of them, those visitors writing back. Every answer is kept by phase, with the time each reply
 * took to reach its visitor's socket and each reconnect took.
 */
export interface Answer {
  /** An operator's reply, a visitor's message, or an operator reading the leads list (a heavy read). */
  kind: "reply" | "visitor" | "leads";
  /** The visitor's index in Load.visitors. */
  visitor: number;
  body: string;
  /** The phase it was sent in, and the one its answer came in (a kill's 502 answers the moment it happens). */
  phase: string;
  answeredIn: string;
  status: number;
  retryAfter: boolean;
  sentAt: number;
}

interface Visitor {
  userId: bigint;
  token: string;
  socket?: Socket;
  conversation?: number;
  lastId?: number;
  /** When a part's body first reached the socket; repeats (a replay overlap) are counted apart. */
  arrived: Map<string, number>;
  repeats: number;
  downAt?: number;
}

export interface Load {
  visitors: Visitor[];
  answers: Answer[];
  /** Milliseconds from a socket's loss to its next subscription, per reconnect. */
  reconnects: number[];
  phase: string;
  /** Visitors whose socket is connected and subscribed. */
  connected(): number;
  /** Runs replies and visitor messages, `perSecond` of each, until stop(). */
  run(perSecond: number): void;
  stop(): Promise<void>;
  close(): void;
}

async function post(
  url: string,
  auth: string,
  json: unknown,
): Promise<{ status: number; retryAfter: boolean }> {
  try {
    const r = await fetch(url, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify(json),
    });
    await r.arrayBuffer();
    return { status: r.status, retryAfter: r.headers.has("retry-after") };
  } catch {
    return { status: 0, retryAfter: false };
  }
}

async function get(url: string, auth: string): Promise<{ status: number; retryAfter: boolean }> {
  try {
    const r = await fetch(url, { headers: { authorization: auth } });
    await r.arrayBuffer();
    return { status: r.status, retryAfter: r.headers.has("retry-after") };
  } catch {
    return { status: 0, retryAfter: false };
  }
}

export async function startLoad(db: Db, url: string, count: number, active: number): Promise<Load> {
  const { app, admin, token } = await makeApp(db, { name: "Cluster load" });
  // The leads are read with a token that writes nothing: its reads may go to a replica.
  const reader = await makeToken(db, app.id);
  const users = await db.$queryRaw<{ id: bigint }[]>`
    INSERT INTO users (app_id) SELECT ${app.id} FROM generate_series(1, ${count}) RETURNING id`;
  const visitors: Visitor[] = [];
  for (const u of users) {
    const pair = await issueTokenPair(db, { kind: "visitor", appId: app.id, userId: u.id });
    visitors.push({ userId: u.id, token: pair.access_token, arrived: new Map(), repeats: 0 });
  }
  const load: Load = {
    visitors,
    answers: [],
    reconnects: [],
    phase: "before",
    connected: () => visitors.filter((v) => v.socket?.connected && v.downAt === undefined).length,
    run: () => undefined,
    stop: async () => undefined,
    close: () => visitors.forEach((v) => v.socket?.close()),
  };

  const open = (v: Visitor) =>
    new Promise<void>((resolve, reject) => {
      const s = connect(url, {
        path: "/socket.io",
        transports: ["websocket"],
        auth: { token: v.token },
        forceNew: true,
        timeout: 60_000,
      });
      v.socket = s;
      s.on("connect", () => {
        void s
          .timeout(30_000)
          .emitWithAck("subscribe", { channels: ["messenger"], ...(v.lastId ? { after: v.lastId } : {}) })
          .then(() => {
            if (v.downAt !== undefined) load.reconnects.push(performance.now() - v.downAt);
            v.downAt = undefined;
            resolve();
          }, reject);
      });
      s.on("disconnect", () => (v.downAt ??= performance.now()));
      s.on("message", (m: { id?: number; message?: { part?: { body?: string } } }) => {
        if (typeof m.id === "number") v.lastId = Math.max(v.lastId ?? 0, m.id);
        const body = m.message?.part?.body;
        if (!body) return;
        if (v.arrived.has(body)) v.repeats++;
        else v.arrived.set(body, performance.now());
      });
      s.once("connect_error", (err) => {
        if (!s.active) reject(err);
      });
    });
  for (let i = 0; i < visitors.length; i += 250) await Promise.all(visitors.slice(i, i + 250).map(open));

  const appAuth = `Token ${token}`;
  for (const v of visitors.slice(0, active)) {
    const r = await fetch(`${url}/api/users/${v.userId}/startconversation`, {
      method: "POST",
      headers: { authorization: appAuth, "content-type": "application/json" },
      body: JSON.stringify({ body: "cluster start" }),
    });
    v.conversation = ((await r.json()) as { data: { id: number } }).data.id;
  }

  let n = 0;
  let running = false;
  const loops: Promise<void>[] = [];
  const talk = async (kind: Answer["kind"], perSecond: number) => {
    while (running) {
      const visitor = n++ % active;
      const v = visitors[visitor]!;
      const body = `${kind}-${n}-${Math.random().toString(36).slice(2, 8)}`;
      const sentAt = performance.now();
      const phase = load.phase;
      const r =
        kind === "leads"
          ? await get(`${url}/api/apps/${app.id}/users?per_page=20`, `Token ${reader}`)
          : kind === "reply"
            ? await post(`${url}/api/conversations/${v.conversation}/reply`, appAuth, {
                body,
                from_admin: String(admin.id),
              })
            : await post(
                `${url}/api/v2/messenger/conversations/${v.conversation}/reply`,
                `Bearer ${v.token}`,
                {
                  body,
                },
              );
      load.answers.push({ kind, visitor, body, phase, answeredIn: load.phase, sentAt, ...r });
      await new Promise((res) =>
        setTimeout(res, Math.max(0, 1000 / perSecond - (performance.now() - sentAt))),
      );
    }
  };
  load.run = (perSecond) => {
    running = true;
    loops.push(talk("reply", perSecond), talk("visitor", perSecond), talk("leads", perSecond));
  };
  load.stop = async () => {
    running = false;
    await Promise.all(loops.splice(0));
  };
  return load;
}

/** The reply's latency to its visitor's socket, when it arrived. */
export function arrivalMs(load: Load, a: Answer): number | undefined {
  const at = load.visitors[a.visitor]?.arrived.get(a.body);
  return at === undefined ? undefined : at - a.sentAt;
}
