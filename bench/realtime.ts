import pg from "pg";
import { io as connect, type Socket } from "socket.io-client";
import { openDb } from "../lib/db/client";
import { migrate } from "../lib/db/migrate";
import { makeApp, makeUser } from "../lib/testing/factories";
import { spawnServer, type Spawned } from "../lib/testing/spawn";
import type { Figure } from "./harness";
import { pct } from "./load";

/**
 * Reply → message latency: 500 sockets subscribed to an app's replies; replies are posted through instance A and
 * the time until each socket has the message is measured, with all sockets on A, then all on B (across instances).
 * Needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). With `datasetUrl`, the two servers run on the benchmark
 * dataset (in an app of their own, removed afterwards); otherwise on a fresh database.
 */
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 500);
const REPLIES = Number(process.env.BENCH_REPLIES ?? 40);

async function measure(post: (body: string) => Promise<void>, sockets: Socket[], channel: string) {
  const lat: number[] = [];
  let expect = "";
  let sentAt = 0;
  let pending = 0;
  let done: (() => void) | undefined;
  for (const s of sockets) {
    s.on("message", (m: { channel: string; message: { body?: string } }) => {
      if (m.channel !== channel || m.message.body !== expect) return;
      lat.push(performance.now() - sentAt);
      if (--pending === 0) done?.();
    });
  }
  for (let i = 0; i < REPLIES; i++) {
    expect = `bench ${i} ${Math.random()}`;
    pending = sockets.length;
    const all = new Promise<void>((r) => (done = r));
    sentAt = performance.now();
    await post(expect);
    await Promise.race([all, new Promise((r) => setTimeout(r, 10_000))]);
  }
  for (const s of sockets) s.removeAllListeners("message");
  return {
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    max: Math.max(...lat),
    received: lat.length,
    expected: REPLIES * sockets.length,
  };
}

export async function benchRealtime(log = console.log, datasetUrl?: string): Promise<Figure[]> {
  const base = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!base?.startsWith("postgres") || !redisUrl) {
    log("realtime: skipped (needs DATABASE_URL=postgresql://… and REDIS_URL)");
    return [];
  }
  const name = `relay_bench_rt_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  if (!datasetUrl) await admin.query(`CREATE DATABASE "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = datasetUrl ?? u.toString();
  let appId: bigint | undefined;
  let A: Spawned | undefined;
  let B: Spawned | undefined;
  const sockets: Socket[] = [];
  try {
    await migrate({ url });
    const h = await openDb(url);
    const app = await makeApp(h.db, { name: "Bench realtime" });
    appId = app.app.id;
    const user = await makeUser(h.db, app.app.id);
    await h.close();
    const env = {
      DATABASE_URL: url,
      REDIS_URL: redisUrl,
      SEED_DEMO: "0",
      RATE_LIMIT_PER_SECOND: "100000",
      RATE_LIMIT_BURST: "100000",
    };
    A = spawnServer(env);
    B = spawnServer(env);
    const [aUrl, bUrl] = await Promise.all([A.ready, B.ready]);
    const call = async (path: string, form: Record<string, string>) => {
      const r = await fetch(aUrl + path, {
        method: "POST",
        headers: { authorization: `Token ${app.token}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      return ((await r.json()) as { data: { id: number } }).data;
    };
    const conv = await call(`/api/users/${user.id}/startconversation`, { body: "bench" });
    const post = async (body: string) => void (await call(`/api/conversations/${conv.id}/reply`, { body }));
    const channel = `conversation_reply.${app.app.id}`;
    const rows: Figure[] = [];
    for (const [label, target] of [
      ["one instance (sockets on A, replies via A)", aUrl],
      ["across instances (sockets on B, replies via A)", bUrl],
    ] as const) {
      const batch: Socket[] = [];
      for (let i = 0; i < SOCKETS; i++) {
        const s = connect(target, {
          path: "/socket.io",
          transports: ["websocket"],
          auth: { token: app.token },
          forceNew: true,
        });
        batch.push(s);
        sockets.push(s);
      }
      await Promise.all(
        batch.map((s) => new Promise<void>((r) => (s.connected ? r() : s.once("connect", () => r())))),
      );
      await Promise.all(batch.map((s) => s.emitWithAck("subscribe", { channels: [channel] })));
      const r = await measure(post, batch, channel);
      rows.push({
        group: "realtime",
        case: `fan-out to ${SOCKETS} sockets, ${label}`,
        n: r.received,
        p50: r.p50,
        p99: r.p99,
        rps: NaN,
        failed: r.expected - r.received,
        target: { kind: "p99<", value: 100 },
        extra: { replies: REPLIES, maxMs: r.max, delivered: `${r.received}/${r.expected}` },
      });
      log(
        `  ${rows.at(-1)!.case}: p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms, ${r.received}/${r.expected}`,
      );
      for (const s of batch) s.disconnect();
    }
    return rows;
  } finally {
    for (const s of sockets) s.disconnect();
    for (const s of [A, B]) {
      s?.child.kill("SIGTERM");
      await s?.exited;
    }
    if (datasetUrl && appId !== undefined) {
      const c = new pg.Client({ connectionString: datasetUrl });
      await c.connect();
      await c.query("DELETE FROM apps WHERE id = $1", [appId]);
      await c.end();
    } else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchRealtime());
  process.exit(0);
}
