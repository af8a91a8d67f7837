import net from "node:net";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { Server } from "socket.io";
import { createAdapter } from "@socket.io/redis-adapter";
import { adapterClients } from "./io";

/**
 * Redis between a connection's first replies coming back one by one or in one read is a matter of timing; this
 * proxy holds each connection's first replies for a moment and passes them on together, the timing that lost an
 * instance's subscriptions for good (lib/realtime/io.ts): the handshake's replies and the adapter's SUBSCRIBE
 * replies parsed at once, before the client's ready check.
 */
async function coalescingProxy(target: URL): Promise<{ url: string; close: () => void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let held: Buffer[] | undefined = [];
    setTimeout(() => {
      if (held?.length) client.write(Buffer.concat(held));
      held = undefined;
    }, 100);
    upstream.on("data", (d: Buffer) => (held ? held.push(d) : client.write(d)));
    client.on("data", (d: Buffer) => upstream.write(d));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

describe.runIf(process.env.REDIS_URL)("the Redis adapter's clients", () => {
  const clients: Redis[] = [];
  let proxy: Awaited<ReturnType<typeof coalescingProxy>>;
  beforeAll(async () => {
    proxy = await coalescingProxy(new URL(process.env.REDIS_URL!));
  });
  afterAll(() => {
    for (const c of clients) c.disconnect();
    proxy.close();
  });

  /** An instance's adapter, created as soon as its subscriber's connection is open (or at once, if it waits). */
  async function instance(key: string): Promise<{ io: Server; ready: Promise<unknown> }> {
    const { pub, sub } = adapterClients(proxy.url);
    clients.push(pub, sub);
    if (sub.status !== "wait") await once(sub, "connect");
    const ready = once(sub, "ready");
    // Not attached to an HTTP server: the adapter is all that is used.
    const io = new Server();
    io.adapter(createAdapter(pub, sub, { key }));
    return { io, ready };
  }

  it("hear each other's broadcasts, however early the adapters subscribe", async () => {
    const key = `socket.io#adapter-clients-${process.pid}-${Date.now()}`;
    const [A, B] = [await instance(key), await instance(key)];
    // Broadcasts start once both subscribers are ready, as they would on a running deployment: one probe that
    // came back in the same read as the subscriptions would hide a subscriber that then lost them.
    await Promise.all([A.ready, B.ready]);
    const [a, b] = [A.io, B.io];
    const heard = { a: 0, b: 0 };
    a.on("probe", () => heard.a++);
    b.on("probe", () => heard.b++);
    // A broadcast sent before the other's subscription is done is lost (nothing queues it), so a few are sent.
    const end = Date.now() + 5000;
    while ((heard.a === 0 || heard.b === 0) && Date.now() < end) {
      a.serverSideEmit("probe");
      b.serverSideEmit("probe");
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(heard.a, "a heard b").toBeGreaterThan(0);
    expect(heard.b, "b heard a").toBeGreaterThan(0);
  });
});
