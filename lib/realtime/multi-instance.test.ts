import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import pg from "pg";
import { until, type Msg } from "./testing";
import { openDb, type DbHandle } from "../db/client";
import { migrate } from "../db/migrate";
import { serverUrl } from "../db/testing";
import { makeApp, makeSession, makeUser } from "../testing/factories";
import { openSocket, watchDisconnect } from "../testing/socket";
import { spawnServer, type Spawned } from "../testing/spawn";
import { freePort } from "../testing/port";

/**
 * Two instances on one PostgreSQL database and one Redis: what a client of one instance receives of writes made
 * through the other, and that delivery goes on when Redis restarts. The test owns its Redis (on a spare port) so
 * restarting it disturbs no other test.
 */

function startRedis(port: number): ChildProcess {
  return spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
}

/** Whether something on the port answers a Redis PING. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.on("connect", () => s.write("PING\r\n"));
    s.on("data", (d) => done(d.toString().startsWith("+PONG")));
    s.on("error", () => done(false));
  });
}

/**
 * Our redis-server answering on the port, or false when it exited (the port taken meanwhile) or never answered.
 * The instances start only once it answers: on a loaded machine, a Redis still starting (or a port another test
 * took between freePort and the spawn) lost the messages published before the adapters subscribed.
 */
async function redisUp(port: number, child: ChildProcess): Promise<boolean> {
  const end = Date.now() + 15_000;
  while (Date.now() < end && child.exitCode === null) {
    if (await pings(port)) return child.exitCode === null;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

async function startOwnRedis(): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = startRedis(port);
    if (await redisUp(port, child)) return { port, child };
    child.kill("SIGKILL");
  }
  throw new Error("could not start a redis-server of the test's own");
}

/**
 * Sends until what was sent arrives. A broadcast through Redis (typing) is lost when it is published before the
 * other instance's adapter has subscribed, which it does as it starts and again once Redis is back, and nothing
 * tells a client when that is done: a single send raced it on a loaded machine.
 */
async function untilDelivered(send: () => Promise<unknown>, arrived: () => boolean, what: string) {
  const end = Date.now() + 15_000;
  for (;;) {
    await send();
    try {
      return await until(arrived, what, 1000);
    } catch (err) {
      if (Date.now() > end) throw err;
    }
  }
}

/** What an instance's health says of its Redis. */
async function redisOf(url: string): Promise<string> {
  const r = await fetch(`${url}/api/health`);
  return ((await r.json()) as { data: { realtime: { redis: string } } }).data.realtime.redis;
}

describe.runIf(serverUrl())("two instances on PostgreSQL and Redis", () => {
  const name = `relay_multi_${process.pid}_${Date.now()}`;
  let url = "";
  let redisPort = 0;
  let redis: ChildProcess | undefined;
  let h: DbHandle;
  let A: Spawned;
  let B: Spawned;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const u = new URL(serverUrl()!);
    u.pathname = `/${name}`;
    url = u.toString();
    await migrate({ url });
    h = await openDb(url);
    ({ port: redisPort, child: redis } = await startOwnRedis());
    const env = { DATABASE_URL: url, REDIS_URL: `redis://127.0.0.1:${redisPort}`, SEED_DEMO: "0" };
    A = spawnServer(env);
    B = spawnServer(env);
    await Promise.all([A.ready, B.ready]);
  }, 90_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const s of [A, B]) {
      s?.child.kill("SIGTERM");
      await s?.exited;
    }
    redis?.kill("SIGKILL");
    await h?.close();
    const admin = new pg.Client({ connectionString: serverUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it("a reply through instance A reaches a client of instance B, before and after Redis restarts", async () => {
    const app = await makeApp(h.db);
    const user = await makeUser(h.db, app.app.id);
    const bUrl = await B.ready;
    const aUrl = await A.ready;
    const socket = connect(bUrl, {
      path: "/socket.io",
      transports: ["websocket"],
      auth: { token: app.token },
    });
    sockets.push(socket);
    const got: Msg[] = [];
    socket.on("message", (m: Msg) => got.push(m));
    await new Promise<void>((r) => socket.once("connect", () => r()));
    const channels = [`conversation_reply.${app.app.id}`, `conversation_typing.${app.app.id}`];
    const ack = (await socket.emitWithAck("subscribe", { channels })) as { subscribed: string[] };
    expect(ack.subscribed).toEqual(channels);

    const post = async (path: string, form: Record<string, string>) => {
      const r = await fetch(aUrl + path, {
        method: "POST",
        headers: { authorization: `Token ${app.token}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      const body = (await r.json()) as { data: Record<string, unknown> };
      expect(r.status, JSON.stringify(body)).toBe(200);
      return body.data;
    };
    const conv = await post(`/api/users/${user.id}/startconversation`, { body: "hello", random_id: "7" });
    const reply = await post(`/api/conversations/${String(conv.id)}/reply`, {
      body: "from A",
      random_id: "8",
    });
    await until(() => got.some((m) => m.message.id === reply.id), "the reply on B");

    const typing = () =>
      post(`/api/conversations/${String(conv.id)}/settyping`, { body: "t", from_user: String(user.id) });
    await untilDelivered(
      typing,
      () => got.some((m) => m.channel.startsWith("conversation_typing")),
      "typing through Redis",
    );

    redis!.kill("SIGKILL");
    // The next reply is made once both instances have lost Redis, as their health reports.
    await expect
      .poll(async () => [await redisOf(aUrl), await redisOf(bUrl)], { timeout: 15_000 })
      .toEqual(["down", "down"]);
    const during = await post(`/api/conversations/${String(conv.id)}/reply`, { body: "while Redis is down" });
    await until(() => got.some((m) => m.message.id === during.id), "the reply while Redis is down");
    redis = startRedis(redisPort);
    expect(await redisUp(redisPort, redis), "redis-server restarted on its port").toBe(true);
    const after = await post(`/api/conversations/${String(conv.id)}/reply`, { body: "after the restart" });
    await until(() => got.some((m) => m.message.id === after.id), "the reply after Redis restarted");
    const typed = got.filter((m) => m.channel.startsWith("conversation_typing")).length;
    await untilDelivered(
      typing,
      () => got.filter((m) => m.channel.startsWith("conversation_typing")).length > typed,
      "typing through Redis after its restart",
    );
    const durable = got.filter((m) => m.id !== null).map((m) => m.id!);
    expect(new Set(durable).size).toBe(durable.length);
  }, 90_000);

  it("a key revoked through instance A ends its sockets on instance B", async () => {
    const app = await makeApp(h.db);
    const keyId = (await h.db.apiKey.findFirstOrThrow({ where: { appId: app.app.id } })).id;
    await h.db.appAdmin.updateMany({ where: { appId: app.app.id }, data: { role: "owner" } });
    const owner = await makeSession(h.db, app.admin.id);
    const socket = await openSocket(await B.ready, { token: app.token });
    sockets.push(socket);
    const dropped = watchDisconnect(socket);
    const r = await fetch(`${await A.ready}/api/apps/${app.app.id}/api_keys/${keyId}`, {
      method: "DELETE",
      headers: { cookie: owner.cookie, "x-csrf-token": owner.csrf },
    });
    expect(r.status).toBe(200);
    // Not a timing test: left alone, the socket would stay open as long as the test runs.
    expect(await dropped.within(10_000)).toBe("io server disconnect");
  }, 30_000);
});
