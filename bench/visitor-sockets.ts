import fs from "node:fs";
import pg from "pg";
import { io as connect, type Socket } from "socket.io-client";
import { openDb } from "../lib/db/client";
import { migrate } from "../lib/db/migrate";
import { makeApp } from "../lib/testing/factories";
import { issueTokenPair } from "../lib/auth/refresh-tokens";
import { spawnServer, type Spawned } from "../lib/testing/spawn";
import type { Figure } from "./harness";
import { pct, pool } from "./load";
import { measureMessages } from "./visitor-messages";
import { beatAsTheFrame, describePresence, measurePresence, refreshVisitor } from "./visitor-presence";

/**
 * Messenger sockets at scale: BENCH_VISITORS visitors (10,000 by default) booted and connected to one server,
 * subscribed to `messenger` and beating every ~20 s; then operator reply → the visitor's socket, and visitor message
 * (POST /messenger/conversations/{id}/reply) → the operators' socket, for BENCH_ACTIVE of them with a conversation, and the server's RSS. Needs PostgreSQL
 * (DATABASE_URL); a fresh database. Each side holds a descriptor per socket: `ulimit -n` above the count.
 * Visitors are made in one statement and their tokens issued here, as boot would (BENCH_BOOT=http boots each one
 * through POST /messenger/boot instead: minutes for 10,000 on a small machine, and not what is measured).
 * Then every visitor sends BENCH_BEATS (3) HTTP heartbeats, one per BENCH_BEAT_MS (20,000, the frame's period),
 * and the UPDATEs they caused are counted (bench/visitor-presence.ts): coalesced, not one per heartbeat.
 * Before that, with BENCH_MESSAGES (100) active proactive messages, an event tracked for each active visitor → its
 * message on the visitor's socket (bench/visitor-messages.ts; target p99 < 200 ms).
 */
const VISITORS = Number(process.env.BENCH_VISITORS ?? 10_000);
const ACTIVE = Math.min(VISITORS, Number(process.env.BENCH_ACTIVE ?? 50));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECT_BATCH = 250;
const BOOT_CONCURRENCY = 16;
const BEAT_MS = Number(process.env.BENCH_BEAT_MS ?? 20_000);
const BEATS = Number(process.env.BENCH_BEATS ?? 3);
const BOOT_HTTP = process.env.BENCH_BOOT === "http";
/** Active proactive messages in the app while one more is triggered for each active visitor. */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);

const rssMb = (pid: number | undefined) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m?.[1] ? Math.round(Number(m[1]) / 1024) : NaN;
};

interface Msg {
  channel: string;
  type?: string;
  message: { body?: string; part?: { body: string } };
}

/** Resolves when a message whose body is `body` reaches the socket; latency from `at`. */
function arrival(socket: Socket, body: string, at: number, timeoutMs = 10_000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const on = (m: Msg) => {
      if ((m.message.part?.body ?? m.message.body) !== body) return;
      done(performance.now() - at);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const done = (v: number | undefined) => {
      clearTimeout(timer);
      socket.off("message", on);
      resolve(v);
    };
    socket.on("message", on);
  });
}

function open(url: string, token: string): Promise<Socket> {
  const s = connect(url, {
    path: "/socket.io",
    transports: ["websocket"],
    auth: { token },
    forceNew: true,
    reconnection: false,
    // A loaded machine accepts thousands of handshakes slowly: the client's 20 s default fails them.
    timeout: 120_000,
  });
  return new Promise((resolve, reject) => {
    s.once("connect", () => resolve(s));
    s.once("connect_error", reject);
  });
}

export async function benchVisitorSockets(log = console.log): Promise<Figure[]> {
  const base = process.env.DATABASE_URL;
  if (!base?.startsWith("postgres")) {
    log("visitor-sockets: skipped (needs DATABASE_URL=postgresql://…)");
    return [];
  }
  const name = `relay_bench_vs_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  let server: Spawned | undefined;
  const sockets: Socket[] = [];
  const beats: NodeJS.Timeout[] = [];
  try {
    await migrate({ url });
    const h = await openDb(url);
    const app = await makeApp(h.db, { name: "Bench visitor sockets" });
    let direct: { token: string; refresh: string; userId: number }[] = [];
    let t = performance.now();
    if (!BOOT_HTTP) {
      const users = await h.db.$queryRaw<{ id: bigint }[]>`
        INSERT INTO users (app_id) SELECT ${app.app.id} FROM generate_series(1, ${VISITORS}) RETURNING id`;
      direct = await pool(users.length, BOOT_CONCURRENCY, async (i) => {
        const userId = users[i]!.id;
        const pair = await issueTokenPair(h.db, { kind: "visitor", appId: app.app.id, userId });
        return { token: pair.access_token, refresh: pair.refresh_token, userId: Number(userId) };
      });
    }
    await h.close();
    server = spawnServer({
      DATABASE_URL: url,
      SEED_DEMO: "0",
      RATE_LIMIT_PER_SECOND: "1000000",
      RATE_LIMIT_BURST: "1000000",
      MESSENGER_VISITOR_PER_MINUTE: "1000000",
      MESSENGER_ADDRESS_PER_MINUTE: "1000000",
    });
    const target = await server.ready;
    const pid = server.child.pid;
    const call = async (path: string, init: { method?: string; json?: unknown; token?: string } = {}) => {
      const r = await fetch(target + path, {
        method: init.method ?? (init.json ? "POST" : "GET"),
        headers: {
          authorization: init.token ? `Bearer ${init.token}` : `Token ${app.token}`,
          ...(init.json ? { "content-type": "application/json" } : {}),
        },
        ...(init.json ? { body: JSON.stringify(init.json) } : {}),
      });
      const body = (await r.json()) as { data: Record<string, unknown> };
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
      return body.data;
    };
    const key = (await call(`/api/v2/apps/${app.app.id}/messenger`)).public_key as string;
    const rssIdle = rssMb(pid);

    if (BOOT_HTTP) t = performance.now();
    const visitors = BOOT_HTTP
      ? await pool(VISITORS, BOOT_CONCURRENCY, async (i) => {
          const boot = await call("/api/v2/messenger/boot", {
            json: { key, device_id: `bench-device-${i}-${Math.random().toString(36).slice(2)}xxxxxxxx` },
          });
          return {
            token: boot.access_token as string,
            refresh: boot.refresh_token as string,
            userId: (boot.visitor as { id: number }).id,
          };
        })
      : direct;
    const bootSeconds = (performance.now() - t) / 1000;
    log(`  ${BOOT_HTTP ? "booted" : "made"} ${VISITORS} visitors in ${bootSeconds.toFixed(1)} s`);
    const rssBooted = rssMb(pid);

    t = performance.now();
    for (let i = 0; i < VISITORS; i += CONNECT_BATCH) {
      const batch = await Promise.all(visitors.slice(i, i + CONNECT_BATCH).map((v) => open(target, v.token)));
      await Promise.all(
        batch.map((s) => s.timeout(30_000).emitWithAck("subscribe", { channels: ["messenger"] })),
      );
      sockets.push(...batch);
      for (const s of batch) {
        // Staggered over the period, as visitors arrive at random.
        const first = setTimeout(
          () => beats.push(setInterval(() => s.emit("heartbeat", {}), BEAT_MS)),
          Math.random() * BEAT_MS,
        );
        beats.push(first);
      }
    }
    const connectSeconds = (performance.now() - t) / 1000;
    const rssConnected = rssMb(pid);
    log(
      `  connected and subscribed ${VISITORS} sockets in ${connectSeconds.toFixed(1)} s; server RSS ${rssIdle} → ${rssConnected} MB`,
    );

    const operator = await open(target, app.token);
    await operator.emitWithAck("subscribe", { channels: [`conversation_reply.${app.app.id}`] });
    const active = await pool(ACTIVE, 4, async (i) => {
      const v = visitors[i]!;
      const c = await call(`/api/users/${v.userId}/startconversation`, { json: { body: "bench start" } });
      return { socket: sockets[i]!, conversation: c.id as number, token: v.token };
    });

    const toVisitor: number[] = [];
    const toOperator: number[] = [];
    let lost = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const a of active) {
        const body = `to visitor ${round} ${Math.random()}`;
        const at = performance.now();
        const got = arrival(a.socket, body, at);
        await call(`/api/conversations/${a.conversation}/reply`, { json: { body } });
        const ms = await got;
        if (ms === undefined) lost++;
        else toVisitor.push(ms);
        const back = `to operator ${round} ${Math.random()}`;
        const at2 = performance.now();
        const got2 = arrival(operator, back, at2);
        await call(`/api/v2/messenger/conversations/${a.conversation}/reply`, {
          json: { body: back },
          token: a.token,
        });
        const ms2 = await got2;
        if (ms2 === undefined) lost++;
        else toOperator.push(ms2);
      }
    }
    const proactive = await measureMessages({
      call,
      appId: app.app.id,
      adminId: app.admin.id,
      count: MESSAGES,
      visitors: active.map((a, i) => ({ socket: a.socket, userId: visitors[i]!.userId })),
    });
    // Fresh access tokens from the server (they last 5 minutes; the frame refreshes each at 80% of its life): an
    // expired one is refused, and many refused at once are throttled as guesses.
    await pool(visitors.length, BOOT_CONCURRENCY, (i) => refreshVisitor(target, visitors[i]!));
    const presence = await measurePresence({
      url,
      visitors,
      beats: BEATS,
      beatMs: BEAT_MS,
      heartbeat: (v) => beatAsTheFrame(target, v),
    });
    log(describePresence(presence, BEATS));
    const rssEnd = rssMb(pid);
    const extra = {
      visitors: VISITORS,
      active: ACTIVE,
      bootSeconds: Number(bootSeconds.toFixed(1)),
      connectSeconds: Number(connectSeconds.toFixed(1)),
      rssIdleMb: rssIdle,
      rssBeforeSocketsMb: rssBooted,
      rssConnectedMb: rssConnected,
      rssEndMb: rssEnd,
      rssGrowthMb: rssEnd - rssIdle,
      kbPerSocket: Math.round(((rssConnected - rssBooted) * 1024) / VISITORS),
      lost,
      heartbeats: presence.heartbeats,
      presenceWrites: presence.presenceWrites,
    };
    const rows: Figure[] = [
      ["operator reply → visitor socket", toVisitor],
      ["visitor message → operator socket", toOperator],
    ].map(([label, lat]) => ({
      group: "visitor-sockets",
      case: `${label as string}, ${VISITORS} visitor sockets`,
      n: (lat as number[]).length,
      p50: pct(lat as number[], 50),
      p99: pct(lat as number[], 99),
      rps: NaN,
      failed: ACTIVE * ROUNDS - (lat as number[]).length,
      target: { kind: "p99<", value: 100 },
      extra,
    }));
    rows.push({
      group: "visitor-sockets",
      case: `tracked event → proactive message on the visitor's socket, ${MESSAGES} active messages, ${VISITORS} visitor sockets`,
      n: proactive.latencies.length,
      p50: pct(proactive.latencies, 50),
      p99: pct(proactive.latencies, 99),
      rps: NaN,
      failed: proactive.lost,
      target: { kind: "p99<", value: 200 },
      extra,
    });
    for (const r of rows)
      log(`  ${r.case}: p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms (n ${r.n})`);
    log(
      `  server RSS: idle ${rssIdle} MB, before the sockets ${rssBooted} MB, with ${VISITORS} sockets ` +
        `${rssConnected} MB (~${extra.kbPerSocket} KB each), end ${rssEnd} MB`,
    );
    operator.disconnect();
    return rows;
  } finally {
    for (const b of beats) clearInterval(b);
    for (const s of sockets) s.disconnect();
    if (server) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchVisitorSockets());
  process.exit(0);
}
