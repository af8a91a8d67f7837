import { afterAll, describe, expect } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { QueryClient } from "@tanstack/react-query";
import { makeSession, makeUser } from "../testing/factories";
import { client } from "../testing/http";
import { ok, startConversation } from "../conversations/testing";
import { purgeEventLog } from "../eventlog/retention";
import { handleSubscribeAck } from "../client/use-socket";

interface Msg {
  id: number | null;
  channel: string;
  message: Record<string, unknown>;
  time: number;
}

let s: TestServer;
let a: TestApp;
let b: TestApp;
const sockets: Socket[] = [];

it.beforeAll(({ server, app, other }) => {
  s = server;
  a = app;
  b = other;
});
afterAll(() => {
  for (const x of sockets) x.disconnect();
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
    gap?: boolean;
    complete_after?: number;
    position?: number;
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
      position: ack.position,
    });
    expect(Number.isSafeInteger(ack.position)).toBe(true);
    const c = client(s, a.token);
    const conv = await startConversation(c, s.db, a.app.id);
    const part = ok(
      await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "hi there", random_id: "424242" }),
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
    ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "before", random_id: "1" }));
    await until(() => first.got.some((m) => m.message.body === "before"), "the first reply");
    const lastSeen = first.got[first.got.length - 1]!.id!;
    first.socket.disconnect();
    for (let i = 0; i < 20; i++) {
      ok(
        await c.postForm(`/api/conversations/${conv.id}/reply`, {
          body: `away ${i}`,
          random_id: String(100 + i),
        }),
      );
    }
    const again = await open({ token: a.token });
    // Live replies race the replay: both must come out once each, in id order.
    const racing = (async () => {
      for (let i = 0; i < 5; i++)
        ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: `live ${i}` }));
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
    ok(await c.postForm(`/api/conversations/${other.id}/reply`, { body: "not for you" }));
    ok(await c.postForm(`/api/conversations/${mine.id}/reply`, { body: "for you" }));
    await until(() => got.some((m) => m.message.body === "for you"), "the scoped reply");
    expect(got.map((m) => m.message.body)).toEqual(["for you"]);
    expect(got[0]!.channel).toBe(scoped);
  });

  it("delivers typing without storing it, and caps a socket at 50 channels", async () => {
    const c = client(s, a.token);
    const conv = await startConversation(c, s.db, a.app.id);
    const { socket, got } = await open({ token: a.token });
    await subscribe(socket, [`conversation_typing.${a.app.id}`]);
    const before = await s.db.eventLogEntry.count();
    ok(
      await c.postForm(`/api/conversations/${conv.id}/settyping`, {
        body: "typ",
        from_user: String(conv.userId),
      }),
    );
    await until(() => got.some((m) => m.channel === `conversation_typing.${a.app.id}`), "typing");
    expect(got[0]!.id).toBeNull();
    expect(await s.db.eventLogEntry.count()).toBe(before);
    const many = Array.from({ length: 60 }, (_, i) => `event.${a.app.id}.${i + 1}`);
    const ack = await subscribe(socket, many);
    expect(ack.subscribed.length).toBe(49);
    expect(ack.refused.length).toBe(11);
  });

  it("publishes presence and props changes on the app's channels and on the user's", async () => {
    const user = await makeUser(s.db, a.app.id);
    const other = await makeUser(s.db, a.app.id);
    const app = a.app.id;
    const channels = [
      `user_presence_changed.${app}`,
      `user_presence_changed.${app}.${user.id}`,
      `user_props_changed.${app}`,
      `user_props_changed.${app}.${user.id}`,
    ];
    const { socket, got } = await open({ token: a.token });
    expect((await subscribe(socket, channels)).subscribed).toEqual(channels);
    const c = client(s, a.token);
    // The other user's changes first: had they leaked onto the user's channels, they would be there before his.
    for (const u of [other, user]) {
      ok(await c.postForm(`/api/users/${u.id}/setpresence`, { presence: "online" }));
      ok(
        await c.postJson(`/api/users/${u.id}/props`, {
          operations: [{ op: "update_or_create", key: "plan", value: `pro ${u.id}` }],
        }),
      );
    }
    const on = (channel: string) => got.filter((m) => m.channel === channel);
    await until(() => on(channels[3]!).length > 0 && on(channels[1]!).length > 0, "the user's own channels");

    const presence = on(`user_presence_changed.${app}`);
    expect(presence.map((m) => m.message)).toEqual([
      expect.objectContaining({ id: Number(other.id), app: Number(app), presence: "online" }),
      expect.objectContaining({ id: Number(user.id), app: Number(app), presence: "online" }),
    ]);
    const myPresence = on(`user_presence_changed.${app}.${user.id}`);
    expect(myPresence).toHaveLength(1);
    expect(myPresence[0]).toMatchObject({ id: presence[1]!.id, message: presence[1]!.message });

    const props = on(`user_props_changed.${app}`);
    expect(props.map((m) => m.message)).toEqual([
      expect.objectContaining({ user: Number(other.id), props: { plan: `pro ${other.id}` } }),
      expect.objectContaining({ user: Number(user.id), props: { plan: `pro ${user.id}` } }),
    ]);
    const myProps = on(`user_props_changed.${app}.${user.id}`);
    expect(myProps).toHaveLength(1);
    expect(myProps[0]).toMatchObject({ id: props[1]!.id, message: props[1]!.message });
  });

  it("tells with every answer where a subscription must resume so that nothing after the read is missed", async () => {
    const c = client(s, a.token);
    const conv = await startConversation(c, s.db, a.app.id);
    const channel = `conversation_reply.${a.app.id}`;
    // The page reads, then a reply commits before its socket subscribes: resuming from the read's position brings it.
    const read = await c.get(`/api/apps/${a.app.id}/conversations`);
    const at = read.headers.get("x-event-position");
    expect(at).toMatch(/^\d+$/);
    ok(
      await c.postForm(`/api/conversations/${conv.id}/reply`, {
        body: "between the read and the subscription",
      }),
    );
    const { socket, got } = await open({ token: a.token });
    const ack = await subscribe(socket, [channel], Number(at));
    await until(
      () => got.some((m) => m.message.body === "between the read and the subscription"),
      "the reply",
    );
    expect(got.every((m) => (m.id ?? 0) > Number(at))).toBe(true);
    // Live delivery starts after the ack's position, which no earlier read's position exceeds. (Equal is right when
    // the hub has not yet tailed the reply at subscribe time: the replay from `at` brings it then.)
    expect(ack.position).toBeGreaterThanOrEqual(Number(at));
    const later = await c.get(`/api/conversations/${conv.id}`);
    expect(Number(later.headers.get("x-event-position"))).toBeGreaterThanOrEqual(ack.position!);
  });

  it("says in the ack when retention purged part of a replay, and the panel then refetches", async () => {
    const c = client(s, a.token);
    const conv = await startConversation(c, s.db, a.app.id);
    const channel = `conversation_reply.${a.app.id}`;
    const lastId = async () => (await s.db.eventLogEntry.aggregate({ _max: { id: true } }))._max.id ?? 0n;
    const before = await lastId();
    for (let i = 0; i < 3; i++)
      ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: `old ${i}` }));
    const lastOld = await lastId();
    ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "recent" }));
    // The three old replies' rows age past retention and the purge takes them.
    const aged = await s.db.$executeRaw`
      UPDATE event_log SET created = now() - INTERVAL '3 days' WHERE id > ${before} AND id <= ${lastOld}`;
    expect(aged).toBeGreaterThanOrEqual(3);
    expect((await purgeEventLog(s.db)).events).toBe(aged);

    const away = await open({ token: a.token });
    const ack = await subscribe(away.socket, [channel], Number(before));
    expect(ack).toEqual({
      subscribed: [channel],
      refused: [],
      position: ack.position,
      gap: true,
      complete_after: Number(lastOld),
    });
    expect(Number.isSafeInteger(ack.position)).toBe(true);
    // What is left is still replayed (before the ack, on the same socket).
    expect(away.got.map((m) => m.message.body)).toEqual(["recent"]);
    // From the mark on nothing is missing, so no gap.
    const fresh = await open({ token: a.token });
    const whole = await subscribe(fresh.socket, [channel], Number(lastOld));
    expect(whole).toEqual({ subscribed: [channel], refused: [], position: whole.position });
    expect(whole.position).toBeGreaterThanOrEqual(ack.position!);
    expect(fresh.got.map((m) => m.message.body)).toEqual(["recent"]);

    // The panel's socket hook invalidates its queries on a gap, and only then.
    const seeded = () => {
      const qc = new QueryClient();
      qc.setQueryData(["probe"], 1);
      return qc;
    };
    const afterGap = seeded();
    handleSubscribeAck(ack, afterGap);
    expect(afterGap.getQueryState(["probe"])?.isInvalidated).toBe(true);
    const afterWhole = seeded();
    handleSubscribeAck(whole, afterWhole);
    expect(afterWhole.getQueryState(["probe"])?.isInvalidated).toBe(false);
  });
});
