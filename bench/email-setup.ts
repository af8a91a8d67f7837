import { Worker } from "node:worker_threads";
import pg from "pg";
import { startServer, type RunningServer } from "../lib/compose/start";
import type { Db } from "../lib/db/client";
import { testEmailConfig } from "../lib/email/testing";
import { makeApp } from "../lib/testing/factories";
import type { Figure } from "./harness";
import { pool } from "./load";

/**
 * What bench/cases-email.ts stands on: its own server (a fresh PostgreSQL database when DATABASE_URL names one,
 * else PGlite in memory) sending to the test SMTP sink, the sink on a thread of its own, apps and visitors.
 */

/** One email as the sink took it: `at` is stamped (Date.now()) on the sink's thread once it has parsed it. */
export interface Arrival {
  to: string[];
  replyTo: string | undefined;
  messageId: string | undefined;
  subject: string;
  at: number;
}

export interface Sink {
  url: string;
  /** Called on this thread for each email, with the time stamped where it arrived. */
  onArrival: (a: Arrival) => void;
  close(): Promise<void>;
}

/**
 * lib/email/testing.ts's startSmtpSink on a worker thread: a mail server is another machine, and parsing ten
 * thousand emails on the server's thread would be counted against the server. It keeps nothing: each email's
 * envelope and headers are posted here.
 */
export function startSinkOffThread(): Promise<Sink> {
  const entry = JSON.stringify(new URL("../lib/email/testing.ts", import.meta.url).href);
  const code = `
    Promise.all([import("node:worker_threads"), import("tsx/esm/api")]).then(async ([{ parentPort }, tsx]) => {
      tsx.register();
      const { startSmtpSink } = await import(${entry});
      const sink = await startSmtpSink();
      sink.received.push = (...mails) => {
        const at = Date.now();
        for (const m of mails)
          parentPort.postMessage({ to: m.envelope.to, replyTo: m.parsed.replyTo?.value[0]?.address,
            messageId: m.parsed.messageId, subject: m.parsed.subject ?? "", at });
        return 0;
      };
      parentPort.on("message", () => sink.close().then(() => parentPort.postMessage("closed")));
      parentPort.postMessage({ url: sink.url });
    });`;
  const w = new Worker(code, { eval: true });
  return new Promise((resolve, reject) => {
    const sink: Sink = {
      url: "",
      onArrival: () => undefined,
      close: async () => {
        const closed = new Promise<void>((r) => w.on("message", (m) => m === "closed" && r()));
        w.postMessage("close");
        await Promise.race([closed, new Promise((r) => setTimeout(r, 5_000))]);
        await w.terminate();
      },
    };
    w.on("message", (m: Arrival | { url: string } | string) => {
      if (typeof m === "string") return;
      if ("url" in m) {
        sink.url = m.url;
        resolve(sink);
      } else sink.onArrival(m);
    });
    w.once("error", reject);
  });
}

export interface EmailBench {
  server: RunningServer;
  db: Db;
  sink: Sink;
  database: "postgres" | "pglite";
  /** The server's log lines (refusals, failures), to tell what went wrong. */
  logged: string[];
  close(): Promise<void>;
}

export async function openEmailBench(): Promise<EmailBench> {
  const base = process.env.DATABASE_URL;
  const onPg = base?.startsWith("postgres") ?? false;
  let url = "pglite:memory://";
  const name = `relay_bench_email_${Date.now()}`;
  const admin = onPg ? new pg.Client({ connectionString: base }) : undefined;
  if (admin) {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const u = new URL(base!);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  const dropDb = async () => {
    await admin?.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin?.end();
  };
  const sink = await startSinkOffThread();
  const logged: string[] = [];
  try {
    const server = await startServer({
      config: {
        databaseUrl: url,
        port: 0,
        host: "127.0.0.1",
        seedDemo: false,
        redisUrl: undefined,
        rateLimitPerSecond: 1e9,
        rateLimitBurst: 1e9,
        // The sink's address; the listener on a free port; delays set per app below.
        email: testEmailConfig(undefined, { smtpUrl: sink.url, inboundPort: 0, continuityDelay: 0 }),
      },
      log: (l) => void logged.push(l),
    });
    return {
      server,
      db: server.runtime.db,
      sink,
      database: onPg ? "postgres" : "pglite",
      logged,
      close: async () => {
        await server.close();
        await sink.close();
        await dropDb();
      },
    };
  } catch (err) {
    await sink.close();
    await dropDb();
    throw err;
  }
}

/** POST a form with the app's token; the envelope's data, or an error naming the status and body. */
export type Post = <T>(path: string, form: Record<string, string>) => Promise<T>;

export function poster(url: string, token: string): Post {
  return async <T>(path: string, form: Record<string, string>) => {
    const r = await fetch(url + path, {
      method: "POST",
      headers: { authorization: `Token ${token}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`POST ${path}: HTTP ${r.status} ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: T }).data;
  };
}

export interface BenchApp {
  id: bigint;
  token: string;
  post: Post;
}

/** An app whose operators get no emails (only the visitors' continuity emails are measured). */
export async function benchApp(b: EmailBench, name: string, continuityDelay: number): Promise<BenchApp> {
  const a = await makeApp(b.db, { name });
  const post = poster(b.server.url, a.token);
  await post(`/api/apps/${a.app.id}/email/settings`, {
    operator_emails: "false",
    continuity_delay: String(continuityDelay),
  });
  return { id: a.app.id, token: a.token, post };
}

export interface Conv {
  id: number;
  email: string;
}

/**
 * `n` visitors with addresses (one INSERT, as makeUser would make each), each starting a conversation through the
 * API, `concurrency` at a time; `reply` also posts one operator reply in each (`${reply} ${i}`).
 */
export async function conversations(
  b: EmailBench,
  app: BenchApp,
  n: number,
  opts: { tag: string; concurrency?: number; reply?: string; log?: (l: string) => void },
): Promise<Conv[]> {
  const users = await b.db.$queryRaw<{ id: bigint; email: string }[]>`
    INSERT INTO users (app_id, user_id, email, name)
    SELECT ${app.id}, ${opts.tag}::text || '-' || i, ${opts.tag}::text || '-' || i || '@example.com', 'Visitor ' || i
    FROM generate_series(1, ${n}::int) i RETURNING id, email`;
  const t = performance.now();
  let done = 0;
  return pool(users.length, opts.concurrency ?? 16, async (i) => {
    const u = users[i]!;
    const c = await app.post<{ id: number }>(`/api/users/${u.id}/startconversation`, { body: `Hello ${i}` });
    if (opts.reply) await app.post(`/api/conversations/${c.id}/reply`, { body: `${opts.reply} ${i}` });
    if (++done % 2000 === 0)
      opts.log?.(`    ${done}/${n} conversations (${Math.round(done / ((performance.now() - t) / 1000))}/s)`);
    return { id: c.id, email: u.email };
  });
}

/**
 * Waits until `done()`, or until `progress()` has not moved for `stallMs`, or `capMs` in all; says which.
 */
export async function waitFor(
  done: () => boolean,
  progress: () => number,
  opts: { stallMs: number; capMs: number; every?: (elapsedS: number) => void },
): Promise<"done" | "stalled" | "timed out"> {
  const start = Date.now();
  let last = progress();
  let movedAt = start;
  let tick = start;
  while (!done()) {
    const now = Date.now();
    if (progress() !== last) [last, movedAt] = [progress(), now];
    if (now - movedAt > opts.stallMs) return "stalled";
    if (now - start > opts.capMs) return "timed out";
    if (opts.every && now - tick >= 10_000) {
      tick = now;
      opts.every(Math.round((now - start) / 1000));
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return "done";
}

/**
 * First arrival per recipient address, how many came twice, and how many first arrivals each phase's visitors
 * (`<tag>-<n>@example.com`, made by conversations() above) have had.
 */
export class Arrivals {
  first = new Map<string, Arrival>();
  repeats = 0;
  private byTag = new Map<string, number>();
  take(a: Arrival) {
    for (const to of a.to) {
      if (this.first.has(to)) this.repeats++;
      else {
        this.first.set(to, a);
        const tag = to.split("-")[0]!;
        this.byTag.set(tag, (this.byTag.get(tag) ?? 0) + 1);
      }
    }
  }
  count(tag: string): number {
    return this.byTag.get(tag) ?? 0;
  }
  of(convs: Conv[]): (Arrival & Conv)[] {
    return convs.flatMap((c) => {
      const a = this.first.get(c.email);
      return a ? [{ ...a, ...c }] : [];
    });
  }
}

export function failedFigure(name: string, expected: number, err: unknown): Figure {
  return {
    group: "email",
    case: name,
    n: 0,
    p50: NaN,
    p99: NaN,
    rps: NaN,
    failed: expected,
    error: err instanceof Error ? err.message : String(err),
  };
}
