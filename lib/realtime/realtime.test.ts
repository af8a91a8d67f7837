import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { startTestServer, type TestServer } from "../testing/server";
import { makeApp, makeSession } from "../testing/factories";
import { client, ok, startConversation } from "../conversations/testing";

interface Msg {
  id: number | null;
  channel: string;
  message: Record<string, unknown>;
  time: number;
}

let s: TestServer;
let a: Awaited<ReturnType<typeof makeApp>>;
let b: Awaited<ReturnType<typeof makeApp>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  s = await startTestServer();
  a = await makeApp(s.db);
  b = await makeApp(s.db);
});
afterAll(async () => {
  for (const x of sockets) x.disconnect();
  await s.close();
});

async function open(auth: { token?: string; cookie?: string }): Promise<{ socket: Socket; got: Msg[] }> {
  const socket = connect(s.url, {
    path: "/socket.io",
    transports: ["websocket"],
    auth: auth.token ? { token: auth.token } : {},
    extraHeaders: auth.cookie ? { cookie: auth.cookie } : {},
    reconnection: false,
  });
  sockets.push(socket);
  const got: Msg[] = [];
  socket.on("message", (m: Msg) => got.push(m));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return { socket, got };
}

function subscribe(socket: Socket, channels: string[], after?: number) {
  return socket.emitWithAck("subscribe", { channels, after }) as Promise<{
    subscribed: string[];
    refused: string[];
  }>;
}

async function until(cond: () => boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("socket.io delivery", () => {
  it("refuses connections without a valid token or session", async () => {
    await expect(open({ token: "rly_nope" })).rejects.toThrow(/AuthenticationFailed/);
    await expect(open({})).rejects.toThrow(/AuthenticationFailed/);
  });

  it("delivers a reply made through the API with its random_id, and refuses other apps' channels", async () => {
    const { socket, got } = await open({ token: a.token });
    const ack = await subscribe(socket, [
      `conversation_reply.${a.app.id}`,
      `conversation_reply.${b.app.id}`,
      "nonsense",
      `conversation_reply.${a.app.id}.1.2`,
    ]);
    expect(ack).toEqual({
      subscribed: [`conversation_reply.${a.app.id}`],
      refused: [`conversation_reply.${b.app.id}`, "nonsense", `conversation_reply.${a.app.id}.1.2`],
    });
    const c = client(s, a.token);
    const conv = await startConversation(c, s.db, a.app.id);
    const part = ok(
      await c.post(`/api/conversations/${conv.id}/reply`, { body: "hi there", random_id: "424242" }),
    );
    await until(() => got.some((m) => m.message.id === part.id), "the reply");
    const msg = got.find((m) => m.message.id === part.id)!;
    expect(msg.channel).toBe(`conversation_reply.${a.app.id}`);
    expect(msg.message.random_id).toBe(424242);
    expect(typeof msg.id).toBe("number");
    expect(msg.time).toBeGreaterThan(1_700_000_000);
    const cb = client(s, b.token);
    await startConversation(cb, s.db, b.app.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(got.every((m) => m.channel === `conversation_reply.${a.app.id}`)).toBe(true);
  });

  it("replays all 20 replies made while a client was away, in order, exactly once, then goes on live", async () => {
    const c = client(s, a.token);
    const conv = await startConversation(c, s.db, a.app.id);
    const channel = `conversation_reply.${a.app.id}`;
    const first = await open({ token: a.token });
    await subscribe(first.socket, [channel]);
    ok(await c.post(`/api/conversations/${conv.id}/reply`, { body: "before", random_id: "1" }));
    await until(() => first.got.some((m) => m.message.body === "before"), "the first reply");
    const lastSeen = first.got[first.got.length - 1]!.id!;
    first.socket.disconnect();
    for (let i = 0; i < 20; i++) {
      ok(
        await c.post(`/api/conversations/${conv.id}/reply`, {
          body: `away ${i}`,
          random_id: String(100 + i),
        }),
      );
    }
    const again = await open({ token: a.token });
    // Live replies race the replay: both must come out once each, in id order.
    const racing = (async () => {
      for (let i = 0; i < 5; i++)
        ok(await c.post(`/api/conversations/${conv.id}/reply`, { body: `live ${i}` }));
    })();
    await subscribe(again.socket, [channel], lastSeen);
    await racing;
    await until(
      () => again.got.filter((m) => String(m.message.body).startsWith("live")).length === 5,
      "live replies",
    );
    const ids = again.got.map((m) => m.id!);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    const bodies = again.got.map((m) => String(m.message.body)).filter((b) => b.startsWith("away"));
    expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => `away ${i}`));
    expect(again.got.every((m) => m.id! > lastSeen)).toBe(true);
  });

  it("scopes a channel to one visitor with .<user>, and serves operators through their session", async () => {
    const c = client(s, a.token);
    const mine = await startConversation(c, s.db, a.app.id);
    const other = await startConversation(c, s.db, a.app.id);
    const op = await makeSession(s.db, a.admin.id);
    const { socket, got } = await open({ cookie: op.cookie });
    const scoped = `conversation_reply.${a.app.id}.${mine.userId}`;
    expect((await subscribe(socket, [scoped])).subscribed).toEqual([scoped]);
    ok(await c.post(`/api/conversations/${other.id}/reply`, { body: "not for you" }));
    ok(await c.post(`/api/conversations/${mine.id}/reply`, { body: "for you" }));
    await until(() => got.some((m) => m.message.body === "for you"), "the scoped reply");
    expect(got.map((m) => m.message.body)).toEqual(["for you"]);
    expect(got[0]!.channel).toBe(scoped);
  });

  it("delivers typing without storing it, and caps a socket at 50 channels", async () => {
    const c = client(s, a.token);
    const conv = await startConversation(c, s.db, a.app.id);
    const { socket, got } = await open({ token: a.token });
    await subscribe(socket, [`conversation_typing.${a.app.id}`]);
    const before = await s.db.outboxEvent.count();
    ok(
      await c.post(`/api/conversations/${conv.id}/settyping`, {
        body: "typ",
        from_user: String(conv.userId),
      }),
    );
    await until(() => got.some((m) => m.channel === `conversation_typing.${a.app.id}`), "typing");
    expect(got[0]!.id).toBeNull();
    expect(await s.db.outboxEvent.count()).toBe(before);
    const many = Array.from({ length: 60 }, (_, i) => `event.${a.app.id}.${i + 1}`);
    const ack = await subscribe(socket, many);
    expect(ack.subscribed.length).toBe(49);
    expect(ack.refused.length).toBe(11);
  });
});
