import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { serverUrl } from "../db/testing";

/**
 * The real `server.ts` as a child process, as `npm start` runs it: graceful shutdown, and recovery after being
 * killed at any moment of migrating or seeding.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

async function freshTarget(): Promise<Record<string, string>> {
  const pgUrl = serverUrl();
  if (!pgUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-proc-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    return { DATA_DIR: dir, DATABASE_URL: "" };
  }
  const name = `relay_proc_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  cleanups.push(async () => {
    const a = new pg.Client({ connectionString: pgUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await a.end();
  });
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  return { DATABASE_URL: u.toString() };
}

interface Started {
  child: ChildProcess;
  output: () => string;
  ready: Promise<string>;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", REDIS_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /Ready on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before ready:\n${out}`)));
  });
  ready.catch(() => undefined);
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, output: () => out, ready, exited };
}

describe("server process", () => {
  it("serves, then shuts down gracefully on SIGTERM and releases the data directory", async () => {
    const env = await freshTarget();
    const s = start({ ...env, SEED_DEMO: "0" });
    const url = await s.ready;
    const health = (await (await fetch(`${url}/api/health`)).json()) as {
      data: { database: { status: string } };
    };
    expect(health.data.database.status).toBe("ok");
    const page = await fetch(`${url}/login`);
    expect(page.status).toBe(200);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
    expect(s.output()).toContain("SIGTERM: shutting down");
    if (env.DATA_DIR) expect(fs.existsSync(path.join(env.DATA_DIR, "process.lock"))).toBe(false);
  });

  it("recovers when killed with SIGKILL while migrating or seeding", async () => {
    const env = await freshTarget();
    // Kill at several moments of the first start (opening, migrating, seeding), then start for real.
    for (const ms of [300, 900, 1600, 2600, 4000]) {
      const s = start({ ...env, SEED_DEMO: "1" });
      await new Promise((r) => setTimeout(r, ms));
      s.child.kill("SIGKILL");
      await s.exited;
    }
    const s = start({ ...env, SEED_DEMO: "1" });
    const url = await s.ready;
    const login = await fetch(`${url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "demo@example.com", password: "demo-password" }),
    });
    expect(login.status, s.output()).toBe(200);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const me = (await (await fetch(`${url}/api/auth/me`, { headers: { cookie } })).json()) as {
      data: { apps: { id: number }[] };
    };
    const appId = me.data.apps[0]!.id;
    const channels = await fetch(`${url}/api/apps/${appId}/channels`, { headers: { cookie } });
    expect(channels.status).toBe(200);
    expect(((await channels.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  }, 120_000);
});
