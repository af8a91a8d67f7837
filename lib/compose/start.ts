import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import path from "node:path";
import next from "next";
import { loadConfig, type Config } from "../config/env";
import { openDb, pglitePath, type DbHandle } from "../db/client";
import { lockDataDir } from "../db/lock";
import { openReplica } from "../db/replica";
import { migrate } from "../db/migrate";
import { attachIo } from "../realtime/io";
import { deploymentName } from "../db/deployment";
import { Hub } from "../realtime/hub";
import { Redis } from "ioredis";
import { rewriteApiUrl } from "../api/rewrite";
import { serveDirect } from "../api/direct";
import { answerClientError, answerConnect } from "../api/client-error";
import { refuseMalformed, refuseStopping } from "../api/refuse";
import { createLogger, routeConsole } from "../server/logger";
import { serveMetrics } from "../server/metrics";
import { linkNote, type RequestNote } from "../server/request-note";
import { logRequest } from "../server/request-log";
import { trustedProxies } from "../api/client-address";
import { routes } from "./catalog";
import { makeLimits } from "../server/rate-limit";
import { setRuntime, type Runtime } from "../server/runtime";
import { foreground } from "../server/foreground";
import { MESSAGES_CONSUMER, messagesConsumerJob } from "../messages/consumer";
import { messageSendJob } from "../messages/send";
import { startRunner, type JobKind, type Runner } from "../jobs/runner";
import { eventLogPurgeJob, startWebhookDispatcher, type Dispatcher } from "../webhooks/dispatcher";
import { importJobKind } from "../imports/run-import";
import { bulkJobKind } from "../bulk/run-bulk";
import { delaySweepJob } from "../conversations/sweeper";
import { presenceSweepJob } from "../users/presence";
import { availabilitySweepJob } from "../admins/availability";
import { serveMessengerAsset } from "../messenger/assets";
import { serveOtherUpgrades } from "../server/upgrades";
import { processWide } from "../config/process-wide";
import { continuityJob } from "../email/continuity";
import { closeTransport, emailSendJob } from "../email/send";
import { notifyEmailJob, operatorsJob } from "../email/operator-emails";
import { transcriptJob } from "../email/transcript";
import { csatEmailJob } from "../csat/email";
import { startSmtpListener, type SmtpListener } from "../email/smtp-listener";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** How long a drain waits for the requests in flight: with the rest, an instance is gone within 30 s of SIGTERM. */
const IN_FLIGHT_GRACE_MS = 15_000;

/**
 * Every kind of background work, in one place: the runner (lib/jobs) claims and runs them. Webhook deliveries run
 * on the same loop over their own table (lib/webhooks/dispatcher.ts); the hub keeps its own wake timer
 * (lib/realtime/hub.ts).
 */
const JOB_KINDS: JobKind[] = [
  importJobKind,
  bulkJobKind,
  delaySweepJob,
  presenceSweepJob,
  availabilitySweepJob,
  eventLogPurgeJob,
  continuityJob,
  operatorsJob,
  notifyEmailJob,
  transcriptJob,
  csatEmailJob,
  emailSendJob,
  messagesConsumerJob,
  messageSendJob,
];

export interface StartOptions {
  config?: Partial<Config>;
  /** An open database (tests); otherwise one is opened from config.databaseUrl. */
  db?: DbHandle;
  dev?: boolean;
  /** Serve /api through Next's catch-all route (the same catalog), as `next dev` does (tests, benchmark). */
  apiThroughNext?: boolean;
  /** Runs after migrations, before the port opens (the demo seed). */
  beforeListen?: (rt: Runtime) => Promise<void>;
  /** Where the server's lines go (tests); otherwise the logger writes them to stdout (LOG_FORMAT). */
  log?: (line: string) => void;
  /** console.* through the logger too (the product's process, server.ts). */
  routeConsole?: boolean;
}

/** Until the server's connections have all closed, or the deadline. */
async function connectionsGone(server: http.Server, deadline: number): Promise<void> {
  const open = () => new Promise<number>((r) => server.getConnections((_err, n) => r(n ?? 0)));
  while (Date.now() < deadline && (await open()) > 0) await new Promise((r) => setTimeout(r, 100));
}

export interface RunningServer {
  url: string;
  port: number;
  runtime: Runtime;
  jobs: Runner;
  webhooks: Dispatcher;
  /** The SMTP listener's port, when SMTP_INBOUND_PORT started one. */
  smtpPort: number | undefined;
  /**
   * The drain, then the rest in reverse. `idleGraceMs`: how long kept-alive connections may stay for their next
   * request (SIGTERM behind a balancer); none: they are closed at once (tests, Ctrl-C).
   */
  close(how?: { idleGraceMs?: number }): Promise<void>;
}

type PanelHandler = ReturnType<ReturnType<typeof next>["getRequestHandler"]>;

/**
 * The panel (Next), one per process and never closed: a closed Next leaves state of its own process-wide spent
 * (its awaiter of work after a response), and the next instance in that process answers every page with a 500.
 * Servers started one after another in one process (the tests) share it; `npm start` exits once its server closes.
 */
function panelOf(dev: boolean): Promise<PanelHandler> {
  return processWide(`panel.${dev ? "dev" : "production"}`, async () => {
    const app = next({ dev, dir: ROOT, quiet: true });
    await app.prepare();
    return app.getRequestHandler();
  });
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const config = { ...loadConfig(), ...opts.config };
  const { logger, requests } = createLogger({
    format: opts.dev ? "text" : config.logFormat,
    instance: config.instanceName,
    sink: opts.log,
  });
  if (opts.routeConsole) routeConsole(logger);
  const log = opts.log ?? ((l: string) => logger.info(l));
  let release = () => {};
  let handle = opts.db;
  if (!handle) {
    const dir = pglitePath(config.databaseUrl);
    if (config.databaseUrl.startsWith("pglite:") && dir) release = lockDataDir(path.dirname(dir));
    try {
      handle = await openDb(config.databaseUrl);
      const applied = await migrate({ url: config.databaseUrl, pglite: handle.pglite });
      if (applied.length) log(`database: applied ${applied.length} migration(s)`);
    } catch (err) {
      release();
      throw err;
    }
  }
  const db = handle;

  const limiterRedis = config.redisUrl
    ? new Redis(config.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: false,
        // Every request takes a token from its bucket: under load, one write carries the commands of a whole tick.
        enableAutoPipelining: true,
        keyPrefix: `${await deploymentName(db.db)}:`,
      })
    : undefined;
  limiterRedis?.on("error", () => undefined);
  const replica = config.databaseReplicaUrl
    ? await openReplica(config.databaseReplicaUrl, db.db, {
        redis: limiterRedis,
        log,
        maxLagMs: config.replicaMaxLagMs,
      })
    : undefined;
  const runtime: Runtime = {
    ...makeLimits(config, limiterRedis),
    db: db.db,
    dbKind: db.kind,
    config,
    realtime: { redis: config.redisUrl ? "down" : "off" },
    afterCommit: [],
    startedAt: Date.now(),
    log,
    foreground: foreground(),
    trustedProxies: trustedProxies(config.trustedProxies),
    poolUse: db.poolUse,
    replica,
  };
  setRuntime(runtime);
  // Links composed before the port opens (the demo's emails) name the port asked for; the real one replaces it.
  if (config.port)
    runtime.baseUrl = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${config.port}`;
  await opts.beforeListen?.(runtime);

  const panel = await panelOf(opts.dev ?? false);

  let inFlight = 0;
  let idle: (() => void) | undefined;
  // Past the drain: what still arrives is refused with a 503 for the balancer to retry elsewhere.
  let stopped = false;
  // Leads filters travel in query strings: allow long request lines. A missing Host is refused below, in the
  // envelope on /api, rather than by Node with an empty 400.
  const serve = (req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight++;
    runtime.foreground?.enter();
    const started = performance.now();
    const note: RequestNote = {};
    linkNote(req, note);
    // Every answer (pages, /api served here or by Next, static files): no browser guesses a type we did not send.
    res.setHeader("X-Content-Type-Options", "nosniff");
    rewriteApiUrl(req, runtime.trustedProxies);
    res.on("close", () => {
      runtime.foreground?.leave();
      if (--inFlight === 0) idle?.();
      logRequest(requests, req, res, note, performance.now() - started);
    });
    if (stopped) return refuseStopping(req, res);
    // Draining: served, on a connection that then closes, so the balancer opens the next one elsewhere.
    if (runtime.draining) res.shouldKeepAlive = false;
    if (refuseMalformed(routes, req, res)) return;
    if (req.url === "/metrics" || req.url?.startsWith("/metrics?")) {
      note.route = "/metrics";
      return void serveMetrics(runtime, req, res);
    }
    if (serveMessengerAsset(req, res)) return void (note.route = "messenger asset");
    // Under `next dev` through Next's catch-all route, which reloads the catalog on edit (lib/api/direct.ts).
    if (!opts.dev && !opts.apiThroughNext && serveDirect(routes, req, res)) return;
    void panel(req, res);
  };
  const server = http.createServer({ maxHeaderSize: 64 * 1024, requireHostHeader: false }, serve);
  serveOtherUpgrades(server, serve);
  server.keepAliveTimeout = 65_000;
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => answerClientError(routes, err, socket));
  server.on("connect", (req: http.IncomingMessage, socket: Duplex) => answerConnect(routes, req, socket));

  const hub = new Hub(db.db, db.kind, config.databaseUrl);
  await hub.start();
  runtime.afterCommit.push(() => hub.wake());
  runtime.eventPosition = () => hub.current();
  const io = await attachIo(
    server,
    runtime,
    { redisUrl: config.redisUrl, instanceName: config.instanceName },
    hub,
  );
  runtime.io = io.io;
  const webhooks = startWebhookDispatcher(runtime);
  const jobs = await startRunner(runtime, JOB_KINDS);
  // A commit may hold user events that trigger messages or reach their goals.
  runtime.afterCommit.push(() => jobs.wake(MESSAGES_CONSUMER));
  const smtp: SmtpListener | undefined =
    config.email.inboundPort !== undefined
      ? await startSmtpListener(runtime, config.email.inboundPort, config.host)
      : undefined;
  Object.defineProperty(runtime.realtime, "redis", { get: () => io.redisStatus(), enumerable: true });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Node's default backlog (511) overflows when a burst of new connections lands while the loop is busy: the
    // kernel drops their handshakes, and those it gives up on are reset. The kernel caps this at somaxconn.
    server.listen({ port: config.port, host: config.host, backlog: 4096 }, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : config.port;
  const url = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`;
  runtime.baseUrl = url;

  let closing: Promise<void> | undefined;
  const close = (how: { idleGraceMs?: number } = {}) =>
    (closing ??= (async () => {
      const started = Date.now();
      // The drain (docs/deploy.md): readiness fails, the port closes (a balancer sends new connections to another
      // instance), answers close their connections, and sockets reconnect elsewhere and replay what they missed.
      runtime.draining = true;
      // net.Server's close, not http.Server's, which closes kept-alive connections at once: a balancer reusing
      // one just as it closes fails that request, and cannot retry a POST elsewhere. With a grace, each closes
      // after its next answer or by the balancer's idle timeout (10 s in deploy/nginx/relay.conf).
      net.Server.prototype.close.call(server);
      if (!how.idleGraceMs) server.closeIdleConnections();
      await io.handOff();
      if (inFlight > 0) {
        await Promise.race([
          new Promise<void>((r) => (idle = r)),
          new Promise<void>((r) => setTimeout(r, IN_FLIGHT_GRACE_MS).unref()),
        ]);
      }
      if (how.idleGraceMs) await connectionsGone(server, started + how.idleGraceMs);
      server.close();
      stopped = true;
      // Running jobs stop at their next safe point; what is left is released for the next claimer.
      await smtp?.close();
      await jobs.stop();
      closeTransport(config.email.smtpUrl);
      await hub.stop();
      await webhooks.stop();
      await io.close();
      limiterRedis?.disconnect();
      server.closeAllConnections();
      setRuntime(undefined);
      await replica?.close();
      if (!opts.db) await db.close();
      release();
    })());

  return { url, port, runtime, jobs, webhooks, smtpPort: smtp?.port, close };
}
