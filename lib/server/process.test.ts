import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { serverUrl } from "../db/testing";
import { spawnServer } from "../testing/spawn";

/**
 * The real `server.ts` as a child process, as `npm start` runs it: graceful shutdown, and recovery after being
 * killed at any moment of migrating or seeding.
 */
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

describe("server process", () => {
  it("serves, then shuts down gracefully on SIGTERM and releases the data directory", async () => {
    const env = await freshTarget();
    const s = spawnServer({ ...env, SEED_DEMO: "0" });
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
    // A real process starts Next and migrates a new database: on a busy machine that alone can take 30 s.
  }, 90_000);

  it("recovers when killed with SIGKILL while migrating or seeding", async () => {
    const env = await freshTarget();
    // Kill at several moments of the first start (opening, migrating, seeding), then start for real.
    for (const ms of [300, 900, 1600, 2600, 4000]) {
      const s = spawnServer({ ...env, SEED_DEMO: "1" });
      await new Promise((r) => setTimeout(r, ms));
      s.child.kill("SIGKILL");
      await s.exited;
    }
    const s = spawnServer({ ...env, SEED_DEMO: "1" });
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
