import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach } from "vitest";
import { serverTest, type TestApp } from "../testing/server-test";
import type { Client } from "../testing/http";
import type { TestServer } from "../testing/server";
import { ok } from "../users/testing";
import { webhookDispatcher, type Dispatcher } from "./dispatcher";

/** A webhook receiver for tests: records every request and answers with what `respond` says (200 by default). */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; app: number; created: number; data: Record<string, unknown> };
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  respond: (r: Received, n: number) => number;
  /** Resolves with the requests once `n` have arrived that satisfy `match`. */
  waitFor(n: number, match?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const rcv: Receiver = {
    url: "",
    port: 0,
    received,
    respond: () => 200,
    waitFor: (n, match = () => true, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hits = received.filter(match);
          if (hits.length < n) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hits);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: ${received.filter(match).length}/${n} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const r: Received = {
        headers: req.headers,
        body,
        json: JSON.parse(body) as Received["json"],
        at: Date.now(),
      };
      received.push(r);
      res.statusCode = rcv.respond(r, received.length);
      res.end("ok");
      for (const w of [...waiters]) w();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  rcv.port = (server.address() as AddressInfo).port;
  rcv.url = `http://127.0.0.1:${rcv.port}/hook`;
  return rcv;
}

/** What a receiver does to trust a delivery: recompute the signature over "timestamp.body" and compare. */
export function verifySignature(secret: string, r: Pick<Received, "headers" | "body">): boolean {
  const ts = String(r.headers["x-webhook-timestamp"] ?? "");
  const sig = String(r.headers["x-webhook-signature"] ?? "");
  const want = `sha256=${crypto.createHmac("sha256", secret).update(`${ts}.${r.body}`).digest("hex")}`;
  return sig.length === want.length && crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(want));
}

export async function waitUntil<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A subscription as the API answers it. */
export interface Hook {
  id: number;
  app: number;
  url: string;
  events: string[];
  active: boolean;
  secret?: string;
  secret_hint?: string;
}

/** What a webhook API test file works with, filled in before its first test. */
export interface WebhookSuite {
  server: TestServer;
  app: TestApp;
  other: TestApp;
  api: Client;
  rcv: Receiver;
  dispatcher: Dispatcher;
  /** The webhooks path of an app (the suite's by default). */
  base(app?: bigint | number): string;
  /** A subscription of the suite's app to `events`, pointed at the receiver. */
  create(events: string[], extra?: Record<string, unknown>): Promise<Hook>;
}

/**
 * The setup every webhook API file repeats: a server that may deliver to loopback, a receiver, the dispatcher
 * retrying in tenths of a second instead of seconds, and the receiver's answer and the URL guard put back after
 * each test.
 */
export function webhookSuite() {
  const it = serverTest({ webhookAllowPrivate: true });
  const w = {
    base: (app: bigint | number = w.app.app.id) => `/api/v2/apps/${app}/webhooks`,
    create: async (events: string[], extra: Record<string, unknown> = {}) =>
      ok<Hook>(await w.api.postJson(w.base(), { url: w.rcv.url, events, ...extra })),
  } as WebhookSuite;
  it.beforeAll(async ({ server, app, other }) => {
    Object.assign(w, { server, app, other, api: app.api, rcv: await startReceiver() });
    w.dispatcher = webhookDispatcher(server.server.runtime)!;
    w.dispatcher.options.retryBaseMs = 100;
  });
  afterEach(() => {
    w.rcv.respond = () => 200;
    w.server.server.runtime.config.webhookAllowPrivate = true;
  });
  afterAll(async () => {
    await w.rcv.close();
  });
  return { it, w };
}
