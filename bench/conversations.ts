import http from "node:http";
import pg from "pg";
import { openDb } from "../lib/db/client";
import { migrate } from "../lib/db/migrate";
import { startServer } from "../lib/server/start";
import { makeApp } from "../lib/testing/factories";

/**
 * The Inbox's hot paths on PostgreSQL with 100,000 conversations (200,000 parts): conversation list first page,
 * the tab counts, a parts page, and reply throughput. The dataset is made once in SQL and kept between runs.
 */
const N = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);

function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function timeRequests(url: string, headers: Record<string, string>, n: number) {
  const agent = new http.Agent({ keepAlive: true });
  const lat: number[] = [];
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const t = performance.now();
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on("end", () =>
            res.statusCode === 200
              ? resolve(performance.now() - t)
              : reject(new Error(`HTTP ${res.statusCode}`)),
          );
        })
        .on("error", reject);
    });
  for (let i = 0; i < 20; i++) await get();
  for (let i = 0; i < n; i++) lat.push(await get());
  agent.destroy();
  return { p50: pct(lat, 50), p99: pct(lat, 99) };
}

async function replyThroughput(
  base: string,
  token: string,
  convIds: number[],
  seconds: number,
  concurrency = 16,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const end = Date.now() + seconds * 1000;
  let ok = 0;
  let failed = 0;
  const lat: number[] = [];
  const one = (id: number) =>
    new Promise<void>((resolve) => {
      const body = new URLSearchParams({ body: "Thanks, looking into it", random_id: String(ok) }).toString();
      const t = performance.now();
      const req = http.request(
        `${base}/api/conversations/${id}/reply`,
        {
          method: "POST",
          agent,
          headers: {
            authorization: `Token ${token}`,
            "content-type": "application/x-www-form-urlencoded",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode === 200) {
              ok++;
              lat.push(performance.now() - t);
            } else failed++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end(body);
    });
  let k = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) await one(convIds[k++ % convIds.length]!);
    }),
  );
  agent.destroy();
  return { rps: Math.round(ok / seconds), failed, p50: pct(lat, 50), p99: pct(lat, 99) };
}

async function dataset(base: string): Promise<string> {
  const name = `relay_bench_conv_${N}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount;
  const u = new URL(base);
  u.pathname = `/${name}`;
  if (!exists) {
    await admin.query(`CREATE DATABASE "${name}_building"`);
    const b = new URL(base);
    b.pathname = `/${name}_building`;
    await migrate({ url: b.toString() });
    const h = await openDb(b.toString());
    const { app, admin: op, channel } = await makeApp(h.db, { name: "Bench" });
    await h.db.$disconnect();
    const c = new pg.Client({ connectionString: b.toString() });
    await c.connect();
    const t = Date.now();
    await c.query(
      `INSERT INTO users (app_id, user_id, name, email, conversation_count, last_seen)
       SELECT $1, 'u' || g, 'Visitor ' || g, 'v' || g || '@example.test', 1, now() - (g % 5000) * interval '1 minute'
       FROM generate_series(1, $2::int) g`,
      [app.id, N],
    );
    await c.query(
      `INSERT INTO conversations (app_id, user_id, channel_id, created, last_update, read, has_user_replies, answered,
         replied, parts_count, unread_parts_count, closed, assignee_id, last_admin_id)
       SELECT $1, u.id, CASE WHEN u.id % 3 = 0 THEN NULL ELSE $2::bigint END, ts - interval '5 minutes', ts,
         (u.id % 4 <> 0), true, (u.id % 2 = 0), (u.id % 2 = 0), 2, CASE WHEN u.id % 4 = 0 THEN 1 ELSE 0 END,
         (u.id % 5 = 0), CASE WHEN u.id % 3 = 1 THEN $3::bigint END, CASE WHEN u.id % 2 = 0 THEN $3::bigint END
       FROM (SELECT id, now() - (random() * interval '60 days') AS ts FROM users WHERE app_id = $1) u`,
      [app.id, channel.id, op.id],
    );
    await c.query(
      `INSERT INTO conversation_parts (conversation_id, app_id, created, body, direction, type, part_group, from_user_id, read)
       SELECT c.id, c.app_id, c.created, 'Hello, I have a question about my order', 'u2a', 'reply_user', 0, c.user_id, true
       FROM conversations c WHERE c.app_id = $1`,
      [app.id],
    );
    await c.query(
      `INSERT INTO conversation_parts (conversation_id, app_id, created, body, direction, type, part_group, from_admin_id)
       SELECT c.id, c.app_id, c.last_update, 'Sure, let me check', 'a2u', 'reply_admin', 0, $2
       FROM conversations c WHERE c.app_id = $1`,
      [app.id, op.id],
    );
    await c.query(`UPDATE conversation_parts SET part_group = id WHERE part_group = 0`);
    await c.query(
      `UPDATE conversations c SET part_last_id = m.max_id, important_part_last_id = m.max_id, reply_last_id = m.max_id
       FROM (SELECT conversation_id, max(id) AS max_id FROM conversation_parts GROUP BY conversation_id) m
       WHERE m.conversation_id = c.id`,
    );
    await c.query("VACUUM ANALYZE");
    await c.end();
    await admin.query(`ALTER DATABASE "${name}_building" RENAME TO "${name}"`);
    console.log(
      `dataset: ${N} conversations, ${2 * N} parts made in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  await admin.end();
  return u.toString();
}

export async function benchConversations(log = console.log) {
  const base = process.env.DATABASE_URL;
  if (!base?.startsWith("postgres")) {
    log("conversations: skipped (needs DATABASE_URL=postgresql://…)");
    return undefined;
  }
  const url = await dataset(base);
  const h = await openDb(url, { poolSize: 20 });
  const app = await h.db.app.findFirstOrThrow({ where: { name: "Bench" } });
  const { createApiToken } = await import("../lib/auth/tokens");
  const { token } = await createApiToken(h.db, { appId: app.id, name: "bench" });
  const server = await startServer({
    db: h,
    config: {
      databaseUrl: url,
      port: 0,
      host: "127.0.0.1",
      seedDemo: false,
      rateLimitPerSecond: 1e9,
      rateLimitBurst: 1e9,
      redisUrl: undefined,
    },
    log: () => undefined,
  });
  try {
    const auth = { authorization: `Token ${token}` };
    const conv = await h.db.conversation.findFirstOrThrow({
      where: { appId: app.id },
      orderBy: { lastUpdate: "desc" },
    });
    const rows: Record<string, unknown>[] = [];
    const cases: [string, string][] = [
      ["list: first page (open)", `/api/apps/${app.id}/conversations?closed=false`],
      ["list: first page (all)", `/api/apps/${app.id}/conversations`],
      [
        "list: unassigned, one channel",
        `/api/apps/${app.id}/conversations?assigned=0&include_not_assigned=true&channel=${conv.channelId ?? 0}`,
      ],
      ["counts", `/api/apps/${app.id}/conversations/counts`],
      ["parts page", `/api/conversations/${conv.id}/parts`],
    ];
    for (const [label, path] of cases) {
      const r = await timeRequests(server.url + path, auth, 200);
      rows.push({ case: label, "p50 ms": r.p50.toFixed(1), "p99 ms": r.p99.toFixed(1) });
    }
    const ids = (
      await h.db.conversation.findMany({ where: { appId: app.id }, select: { id: true }, take: 2000 })
    ).map((c) => Number(c.id));
    const reply = await replyThroughput(
      server.url,
      token,
      ids,
      8,
      Number(process.env.BENCH_REPLY_CONCURRENCY ?? 16),
    );
    rows.push({
      case: `reply (16 concurrent, ${ids.length} conversations)`,
      "p50 ms": reply.p50.toFixed(1),
      "p99 ms": reply.p99.toFixed(1),
      "req/s": reply.rps,
      failed: reply.failed,
    });
    log(`database: PostgreSQL, ${N} conversations`);
    console.table(rows);
    return rows;
  } finally {
    await server.close();
    await h.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchConversations();
  process.exit(0);
}
