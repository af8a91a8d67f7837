import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../db/client";
import { migrate } from "../db/migrate";
import { serverUrl } from "../db/testing";
import { makeApp } from "../testing/factories";
import { spawnServer } from "../testing/spawn";
import { freePort } from "../testing/port";
import { startReceiver, verifySignature, waitUntil, type Receiver } from "./testing";

/**
 * The real `server.ts` as a child process, killed with SIGKILL after committing writes whose webhooks it had not
 * delivered yet (a failed first attempt, or none at all): the deliveries live in the database, so the next start
 * sends them.
 */
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A migrated database with one app, and the environment that points the server at it. */
async function prepared(): Promise<{ env: Record<string, string>; appId: bigint; token: string }> {
  const pgUrl = serverUrl();
  let url: string;
  let env: Record<string, string>;
  if (!pgUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-hooks-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    url = `pglite://${dir}/db`;
    env = { DATA_DIR: dir, DATABASE_URL: "" };
  } else {
    const name = `relay_hooks_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    });
    const u = new URL(pgUrl);
    u.pathname = `/${name}`;
    url = u.toString();
    env = { DATABASE_URL: url };
  }
  const h = await openDb(url);
  try {
    await migrate({ url, pglite: h.pglite });
    const { app, token } = await makeApp(h.db);
    return { env, appId: app.id, token };
  } finally {
    await h.close();
  }
}

/** A JSON call with the app's token that must answer 200; returns `data`. */
function caller(token: string) {
  return async (base: string, p: string, body?: unknown) => {
    const r = await fetch(base + p, {
      method: body === undefined ? "GET" : "POST",
      headers: { Authorization: `Token ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await r.json()) as { data: Record<string, unknown> };
    expect(r.status, JSON.stringify(json)).toBe(200);
    return json.data;
  };
}

interface Delivery {
  id: number;
  message_id: string;
  type: string;
  status: string;
  attempts: number;
}

function start(env: Record<string, string>) {
  const s = spawnServer({ SEED_DEMO: "0", ...env });
  cleanups.push(async () => {
    if (s.child.exitCode === null) s.child.kill("SIGKILL");
    await s.exited;
  });
  return s;
}

describe("webhooks across a crash", () => {
  it("delivers after a restart what a SIGKILLed server committed but had not sent", async () => {
    const { env, appId, token } = await prepared();
    const port = await freePort();
    const hookUrl = `http://127.0.0.1:${port}/hook`;
    const srvEnv = { ...env, WEBHOOK_ALLOW_PRIVATE: "1" };
    const call = caller(token);

    // First life: the receiver is not listening yet, so nothing can be delivered before the kill.
    const first = start(srvEnv);
    const url1 = await first.ready;
    const hook = await call(url1, `/api/v2/apps/${appId}/webhooks`, { url: hookUrl, events: ["user.event"] });
    const test = await call(url1, `/api/v2/apps/${appId}/webhooks/${hook.id as number}/test`, {});
    await call(url1, `/api/users/crash-visitor/events`, { by_user_id: true, event: "Crashed" });
    // Killed once both have failed a first time: the next try is seconds away, so no send is in flight.
    await waitUntil(async () => {
      const d = (await call(
        url1,
        `/api/v2/apps/${appId}/webhooks/${hook.id as number}/deliveries`,
      )) as unknown as {
        status: string;
        attempts: number;
      }[];
      return d.length === 2 && d.every((x) => x.status === "pending" && x.attempts >= 1);
    });
    first.child.kill("SIGKILL");
    await first.exited;

    let rcv: Receiver | undefined;
    try {
      rcv = await startReceiver(port);
      const second = start(srvEnv);
      const url2 = await second.ready;
      // Within a backoff step; were a retry in flight at the kill, its 60 s lease would bring it back.
      const got = await rcv.waitFor(2, () => true, 90_000);
      const test1 = got.find((r) => r.json.type === "test")!;
      const event = got.find((r) => r.json.type === "user.event")!;
      expect(test1.headers["x-webhook-id"]).toBe(test.message_id);
      expect(event.json.data).toMatchObject({ type: { name: "Crashed" } });
      for (const r of got) expect(verifySignature(hook.secret as string, r)).toBe(true);
      const log = await waitUntil(async () => {
        const d = (await call(
          url2,
          `/api/v2/apps/${appId}/webhooks/${hook.id as number}/deliveries`,
        )) as unknown as {
          status: string;
        }[];
        return d.length === 2 && d.every((x) => x.status === "succeeded") ? d : undefined;
      });
      expect(log).toHaveLength(2);
      second.child.kill("SIGTERM");
      expect(await second.exited, second.output()).toBe(0);
    } finally {
      await rcv?.close();
    }
  }, 180_000);

  it("delivers exactly once after a restart what was committed but never attempted, the receiver up all along", async () => {
    const { env, appId, token } = await prepared();
    const rcv = await startReceiver();
    cleanups.push(() => rcv.close());
    const call = caller(token);
    const srvEnv = { ...env, WEBHOOK_ALLOW_PRIVATE: "1" };
    const deliveries = async (base: string, hook: number) =>
      (await call(base, `/api/v2/apps/${appId}/webhooks/${hook}/deliveries`)) as unknown as Delivery[];

    // First life: the dispatcher holds back, so the kill lands between the write's commit and its first attempt.
    const first = start({ ...srvEnv, WEBHOOK_DISPATCH_DELAY_MS: "3600000" });
    const url1 = await first.ready;
    const hook = await call(url1, `/api/v2/apps/${appId}/webhooks`, { url: rcv.url, events: ["user.event"] });
    const hookId = hook.id as number;
    // The 200 is the acknowledgement: the event and its delivery are committed.
    await call(url1, `/api/users/window-visitor/events`, { by_user_id: true, event: "Committed" });
    const [queued] = await deliveries(url1, hookId);
    expect(queued).toMatchObject({ type: "user.event", status: "pending", attempts: 0 });
    first.child.kill("SIGKILL");
    await first.exited;
    expect(rcv.received).toEqual([]);

    const second = start(srvEnv);
    const url2 = await second.ready;
    const [got] = await rcv.waitFor(1, (r) => r.json.type === "user.event", 60_000);
    expect(got!.headers["x-webhook-id"]).toBe(queued!.message_id);
    expect(got!.json).toMatchObject({ id: queued!.message_id, data: { type: { name: "Committed" } } });
    expect(verifySignature(hook.secret as string, got!)).toBe(true);
    // Settled means no attempt is left in flight or due: what the receiver holds by then is all it will ever get.
    const done = await waitUntil(async () => {
      const d = await deliveries(url2, hookId);
      return d.every((x) => x.status === "succeeded") ? d : undefined;
    });
    expect(done).toEqual([expect.objectContaining({ id: queued!.id, status: "succeeded", attempts: 1 })]);
    expect(rcv.received.filter((r) => r.headers["x-webhook-id"] === queued!.message_id)).toHaveLength(1);
    expect(rcv.received).toHaveLength(1);
    second.child.kill("SIGTERM");
    expect(await second.exited, second.output()).toBe(0);
  }, 180_000);
});
