import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { serverUrl } from "../db/testing";
import { makeApp } from "../testing/factories";
import { startTestServer, type TestServer } from "../testing/server";
import { openSocket, watchDisconnect } from "../testing/socket";
import { startServer } from "./start";

/**
 * The drain on SIGTERM (server.ts calls close()): readiness fails, answers close their connections, sockets are
 * handed off as lost connections (clients reconnect, elsewhere behind a balancer) and no other instance's sockets
 * are touched.
 */
const opened: { close(): unknown }[] = [];
afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
});

async function server(config: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(config);
  opened.push(s);
  return s;
}

function socketOf(url: string, token: string): Promise<Socket> {
  return openSocket(url, { token }).then((s) => (opened.push({ close: () => s.disconnect() }), s));
}

/** A plain GET, with the headers as sent (fetch hides Connection). */
function get(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on("error", reject);
  });
}

describe("draining an instance", () => {
  it("fails readiness, stays live, and closes each connection after its answer", async () => {
    const s = await server();
    const before = await get(`${s.url}/api/health/ready`);
    expect(before.status).toBe(200);
    expect(before.headers.connection).toBe("keep-alive");
    expect(JSON.parse(before.body)).toMatchObject({ data: { ready: true, draining: false, database: "ok" } });

    s.server.runtime.draining = true;
    try {
      const ready = await get(`${s.url}/api/health/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers["retry-after"]).toBe("1");
      expect(ready.headers.connection).toBe("close");
      expect(JSON.parse(ready.body)).toMatchObject({ data: { ready: false, draining: true } });
      const live = await get(`${s.url}/api/health/live`);
      expect(live.status).toBe(200);
      expect(live.headers.connection).toBe("close");
    } finally {
      s.server.runtime.draining = false;
    }
  });

  it("hands its sockets off as lost connections, which clients reconnect, and names them after the instance", async () => {
    const s = await server({ instanceName: "a" });
    const { token } = await makeApp(s.db);
    const socket = await socketOf(s.url, token);
    expect(socket.io.engine.id).toMatch(/^a\./);
    const gone = watchDisconnect(socket);
    await s.server.close();
    // Not "io server disconnect", after which a socket.io client never reconnects by itself.
    expect(await gone.within(5000)).toBe("transport close");
  });

  it.skipIf(!serverUrl())(
    "leaves the sockets of the other instances connected (PostgreSQL + Redis)",
    async () => {
      const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
      const a = await server({ redisUrl, instanceName: "a" });
      const b = await startServer({
        config: { ...a.server.runtime.config, port: 0, databaseUrl: a.dbUrl, redisUrl, instanceName: "b" },
        log: () => undefined,
      });
      opened.push(b);
      const { token } = await makeApp(a.db);
      const onA = await socketOf(a.url, token);
      const onB = await socketOf(b.url, token);
      const aGone = watchDisconnect(onA);
      const bGone = watchDisconnect(onB);
      await a.server.close();
      expect(await aGone.within(5000)).toBe("transport close");
      // Before: the drain's disconnect went to every instance through the Redis adapter.
      await expect(bGone.within(1500)).rejects.toThrow(/still connected/);
      const ack = (await onB.timeout(5000).emitWithAck("subscribe", { channels: [] })) as {
        subscribed: unknown;
      };
      expect(ack.subscribed).toEqual([]);
    },
    60_000,
  );
});
