import { createTestDb, type TestDb } from "../db/testing";
import { startServer, type RunningServer, type StartOptions } from "../compose/start";
import type { Config } from "../config/env";

export interface TestServer {
  url: string;
  db: TestDb["db"];
  /** The database's own URL (tests that open a connection of their own). */
  dbUrl: string;
  server: RunningServer;
  close(): Promise<void>;
  /** fetch relative to the server, returning the parsed envelope too. */
  call(path: string, init?: RequestInit & { json?: unknown; form?: Record<string, string> }): Promise<Called>;
}

export interface Called {
  status: number;
  headers: Headers;
  body: { data: unknown; meta: Record<string, unknown> & { status: number } };
  text: string;
}

/** The real product server (Next production build + socket.io) on a free port, over a fresh test database. */
export async function startTestServer(
  config: Partial<Config> = {},
  opts: Pick<StartOptions, "apiThroughNext" | "log"> = {},
): Promise<TestServer> {
  const db = await createTestDb();
  const server = await startServer({
    ...opts,
    db,
    config: {
      databaseUrl: db.url,
      port: 0,
      host: "127.0.0.1",
      seedDemo: false,
      rateLimitPerSecond: 10_000,
      rateLimitBurst: 10_000,
      loginMaxFailures: 10_000,
      badTokensPerMinute: 10_000,
      messengerVisitorPerMinute: 10_000,
      messengerAddressPerMinute: 10_000,
      messengerTypingPerMinute: 10_000,
      messengerTrackPerMinute: 10_000,
      ...config,
    },
    log: opts.log ?? (() => undefined),
  });
  const call: TestServer["call"] = async (path, init = {}) => {
    const headers = new Headers(init.headers);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(server.url + path, { ...init, headers, body });
    const text = await res.text();
    let parsed: Called["body"];
    try {
      parsed = JSON.parse(text) as Called["body"];
    } catch {
      parsed = { data: null, meta: { status: -1, raw: text.slice(0, 200) } };
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    db: db.db,
    dbUrl: db.url,
    server,
    call,
    // Idempotent: a test may close the server itself (to check what closing does) before its fixture does.
    close: () =>
      (closing ??= (async () => {
        await server.close();
        await db.close();
      })()),
  };
}
