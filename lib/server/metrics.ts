import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { processWide } from "../config/process-wide";
import { sqlOf } from "../db/sql";
import { tryRuntime, type Runtime } from "./runtime";

/**
 * `/metrics` in Prometheus's format (prom-client). One registry per process (processWide: Next's route bundles
 * count into the same one); the gauges read the running server when scraped, so servers started one after another
 * in a test process need no registration of their own.
 */
interface Metrics {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  duration: Histogram<"method" | "route">;
  deliveries: Counter<"channel" | "result">;
  replicaReads: Counter<"served_by">;
}

export const metrics = (): Metrics => processWide("metrics", makeMetrics);

/** A request answered: `route` is the endpoint's path pattern (`/apps/{id}/conversations`), never the raw path. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const m = metrics();
  m.requests.inc({ method, route, status: String(status) });
  m.duration.observe({ method, route }, seconds);
}

/** A heavy read (DATABASE_REPLICA_URL set): where it was served. */
export function countReplicaRead(servedBy: "replica" | "primary"): void {
  metrics().replicaReads.inc({ served_by: servedBy });
}

/** An email or webhook delivery attempt's outcome (sent, deferred, failed, bounced; delivered, retry, failed). */
export function countDelivery(channel: "email" | "webhook", result: string, n = 1): void {
  if (n > 0) metrics().deliveries.inc({ channel, result }, n);
}

function makeMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "relay_" });
  const registers = [registry];
  const m: Metrics = {
    registry,
    requests: new Counter({
      name: "relay_http_requests_total",
      help: "Requests answered, by method, endpoint path pattern and status",
      labelNames: ["method", "route", "status"],
      registers,
    }),
    duration: new Histogram({
      name: "relay_http_request_duration_seconds",
      help: "Time to answer a request, by method and endpoint path pattern",
      labelNames: ["method", "route"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    deliveries: new Counter({
      name: "relay_deliveries_total",
      help: "Email and webhook delivery attempts, by outcome",
      labelNames: ["channel", "result"],
      registers,
    }),
    replicaReads: new Counter({
      name: "relay_replica_reads_total",
      help: "Heavy reads (leads, reports, exports, search), by where they were served: replica or primary",
      labelNames: ["served_by"],
      registers,
    }),
  };
  new Gauge({
    name: "relay_sockets",
    help: "Open socket.io connections on this instance, by who holds them",
    labelNames: ["kind"],
    registers,
    collect() {
      this.reset();
      for (const socket of tryRuntime()?.io?.sockets.sockets.values() ?? []) {
        const actor = (socket.data as { actor?: { kind: string } }).actor;
        this.inc({ kind: actor?.kind ?? "unknown" });
      }
    },
  });
  new Gauge({
    name: "relay_db_pool_connections",
    help: "The database pool's connections: total, idle, and requests waiting for one",
    labelNames: ["state"],
    registers,
    collect() {
      const use = tryRuntime()?.poolUse?.();
      if (!use) return;
      this.set({ state: "total" }, use.total);
      this.set({ state: "idle" }, use.idle);
      this.set({ state: "waiting" }, use.waiting);
    },
  });
  new Gauge({
    name: "relay_replica_lag_seconds",
    help: "How far the read replica is behind the primary (-1: not answering); absent without a replica",
    registers,
    collect() {
      const replica = tryRuntime()?.replica;
      if (replica) this.set(replica.lagSeconds() ?? -1);
    },
  });
  const logLag = new Gauge({
    name: "relay_eventlog_socket_lag_rows",
    help: "Event-log rows committed that this instance has not yet delivered to its sockets",
    registers,
  });
  const webhookDue = new Gauge({
    name: "relay_webhook_deliveries_due",
    help: "Webhook deliveries due and not yet sent",
    registers,
  });
  const webhookAge = new Gauge({
    name: "relay_webhook_oldest_due_seconds",
    help: "How long the oldest due webhook delivery has waited",
    registers,
  });
  const jobsDue = new Gauge({
    name: "relay_jobs_due",
    help: "Background jobs due and not yet claimed, by queue",
    labelNames: ["queue"],
    registers,
  });
  const jobsAge = new Gauge({
    name: "relay_jobs_oldest_due_seconds",
    help: "How long the oldest due job of a queue has waited",
    labelNames: ["queue"],
    registers,
  });
  // One scrape reads the database once for all of them (prom-client awaits a gauge's collect).
  new Gauge({
    name: "relay_metrics_scrape_database_seconds",
    help: "Time this scrape spent reading the queues from the database",
    registers,
    async collect() {
      const rt = tryRuntime();
      if (!rt) return;
      const started = performance.now();
      const q = await queues(rt).catch(() => undefined);
      this.set((performance.now() - started) / 1000);
      if (!q) return;
      const delivered = rt.eventPosition?.();
      if (delivered !== undefined) logLag.set(Math.max(0, Number(q.newest - delivered)));
      webhookDue.set(q.webhooksDue);
      webhookAge.set(q.webhookAge);
      jobsDue.reset();
      jobsAge.reset();
      for (const j of q.jobs) {
        jobsDue.set({ queue: j.queue }, j.due);
        jobsAge.set({ queue: j.queue }, j.age);
      }
    },
  });
  return m;
}

async function queues(rt: Runtime) {
  const db = sqlOf(rt.db);
  const [[log], [hooks], jobs] = await Promise.all([
    db.$queryRaw<{ newest: bigint }[]>`SELECT COALESCE(max(id), 0)::bigint AS newest FROM event_log`,
    db.$queryRaw<{ due: number; age: number }[]>`
      SELECT count(*)::int AS due, COALESCE(extract(epoch FROM now() - min(next_attempt_at)), 0)::float8 AS age
      FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()`,
    db.$queryRaw<{ queue: string; due: number; age: number }[]>`
      SELECT queue, count(*)::int AS due, extract(epoch FROM now() - min(run_at))::float8 AS age
      FROM jobs WHERE status = 'queued' AND run_at <= now() GROUP BY queue`,
  ]);
  return {
    newest: BigInt(log?.newest ?? 0),
    webhooksDue: hooks?.due ?? 0,
    webhookAge: hooks?.age ?? 0,
    jobs,
  };
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Answers `GET /metrics`: with METRICS_TOKEN set, to its Bearer token only; without, to loopback clients that came
 * straight here (a request a balancer forwarded carries X-Forwarded-For, and its client may be anyone).
 */
export async function serveMetrics(rt: Runtime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const token = rt.config.metricsToken;
  const deny = (status: number, why: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      ...headers,
    });
    res.end(`${why}\n`);
  };
  if (token) {
    const given = Buffer.from(/^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "");
    const want = Buffer.from(token);
    if (given.length !== want.length || !timingSafeEqual(given, want))
      return deny(401, "A Bearer token (METRICS_TOKEN) is required.", {
        "WWW-Authenticate": 'Bearer realm="metrics"',
      });
  } else if (!LOOPBACK.test(req.socket.remoteAddress ?? "") || req.headers["x-forwarded-for"] !== undefined) {
    return deny(
      403,
      "Metrics are served to loopback clients only; set METRICS_TOKEN to scrape from elsewhere.",
    );
  }
  if (req.method !== "GET" && req.method !== "HEAD") return deny(405, "GET only.", { Allow: "GET, HEAD" });
  const { registry } = metrics();
  const text = await registry.metrics();
  res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : text);
}
