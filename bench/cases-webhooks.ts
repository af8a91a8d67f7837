import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { pgSession } from "../lib/db/client";
import { call, concurrentOffThread, pct } from "./load";
import { push, type Session, type Target } from "./harness";

/**
 * Webhook delivery lag under the reply load: a receiver on 127.0.0.1 subscribed to replies, a burst of replies at
 * the reply benchmark's concurrency, and for each reply the time from its commit (the part's `created`, stamped in
 * the writing transaction) to its delivery's arrival. Deliveries that never arrive count as failed.
 */
const LAG_P99: Target = { kind: "p99<", value: 1000 };

export async function benchWebhooks(s: Session): Promise<void> {
  const arrived = new Map<number, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { data: { id?: number } };
      if (typeof body.data.id === "number" && !arrived.has(body.data.id)) arrived.set(body.data.id, at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  const app = s.ds.appId;
  const hook = await call<{ id: number }>(s.api.url, {
    method: "POST",
    path: `/api/v2/apps/${app}/webhooks`,
    headers: s.auth,
    form: { url: `http://127.0.0.1:${port}/hook`, events: "conversation.admin_replied" },
  });
  const c = new pg.Client(pgSession(s.ds.url));
  await c.connect();
  try {
    const open = await c.query<{ id: string }>(
      "SELECT id FROM conversations WHERE app_id = $1 AND NOT closed ORDER BY id LIMIT 2000",
      [app],
    );
    const ids = open.rows.map((r) => r.id);
    const replies = Number(process.env.BENCH_WEBHOOK_REPLIES ?? 600);
    const concurrency = Number(process.env.BENCH_REPLY_CONCURRENCY ?? 32);
    const since = new Date();
    const load = await concurrentOffThread(
      s.api.url,
      (i) => ({
        method: "POST",
        path: `/api/conversations/${ids[i % ids.length]}/reply`,
        headers: s.auth,
        form: { body: `webhook lag ${i}` },
      }),
      { concurrency, seconds: 120, max: replies },
    );
    const parts = await c.query<{ id: string; created: Date }>(
      `SELECT p.id, p.created FROM conversation_parts p JOIN conversations v ON v.id = p.conversation_id
       WHERE v.app_id = $1 AND p.created >= $2 AND p.type = 'reply_admin' AND p.body LIKE 'webhook lag %'`,
      [app, since],
    );
    const until = Date.now() + 30_000;
    while (Date.now() < until && parts.rows.some((p) => !arrived.has(Number(p.id))))
      await new Promise((r) => setTimeout(r, 50));
    const lags = parts.rows
      .filter((p) => arrived.has(Number(p.id)))
      .map((p) => arrived.get(Number(p.id))! - p.created.getTime());
    const missing = parts.rows.length - lags.length;
    push(s, {
      group: "webhooks",
      case: `delivery lag, commit → receiver (${load.n} replies at ${concurrency} concurrent)`,
      n: lags.length,
      p50: pct(lags, 50),
      p99: pct(lags, 99),
      rps: load.rps,
      failed: missing + load.failed,
      error: missing ? `${missing} deliveries did not arrive within 30 s` : load.error,
      target: LAG_P99,
      extra: { maxMs: Math.max(...lags), replyP50: load.p50, replyP99: load.p99 },
    });
  } finally {
    await c.query("DELETE FROM webhook_subscriptions WHERE id = $1", [hook.id]);
    await c.end();
    await new Promise((r) => receiver.close(r));
  }
}
