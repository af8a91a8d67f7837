import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeSession, makeUser, unique } from "../testing/factories";
import { client, type Client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import type { Notification } from "./schemas";

interface Op {
  id: bigint;
  name: string;
  email: string;
  api: Client;
  cookie: string;
}

async function operator(s: TestServer, a: TestApp, name = unique("Op")): Promise<Op> {
  const admin = await makeAdmin(s.db, { appId: a.app.id, name });
  const session = await makeSession(s.db, admin.id);
  return { id: admin.id, name, email: admin.email, api: client(s, session), cookie: session.cookie };
}

async function conversation(s: TestServer, a: TestApp): Promise<string> {
  const user = await makeUser(s.db, a.app.id);
  const conv = ok<{ id: number }>(
    await a.api.postJson(`/api/users/${user.id}/startconversation`, { body: unique("hello") }),
  );
  return String(conv.id);
}

const list = async (op: Op) => {
  const r = await op.api.get("/api/notifications");
  ok(r);
  return { items: r.body.data as Notification[], unread: r.body.meta.unread as number };
};

function nextMessage(socket: Socket, channel: string): Promise<{ channel: string; message: Notification }> {
  return new Promise((resolve) => {
    const on = (m: { channel: string; message: Notification }) => {
      if (m.channel !== channel) return;
      socket.off("message", on);
      resolve(m);
    };
    socket.on("message", on);
  });
}

describe("notifications", () => {
  it("tells a mentioned operator, live and in the list, and not the author or others", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const ann = await operator(s, a, unique("Ann"));
    const bob = await operator(s, a, unique("Bob"));
    const cat = await operator(s, a, unique("Cat"));
    const c = await conversation(s, a);
    const channel = `notification.${a.app.id}.${bob.id}`;
    const socket = await sockets.open({ cookie: bob.cookie });
    const ack = (await socket.emitWithAck("subscribe", { channels: [channel] })) as { subscribed: string[] };
    expect(ack.subscribed).toEqual([channel]);
    const live = nextMessage(socket, channel);

    const body = `@${bob.name} can you look? cc @${ann.name}`;
    const note = ok<{ id: number }>(
      await ann.api.postJson(`/api/conversations/${c}/reply`, { type: "note", body }),
    );
    const got = await live;
    expect(got.message).toMatchObject({
      kind: "mention",
      conversation: Number(c),
      part: note.id,
      actor: { id: Number(ann.id), name: ann.name },
      excerpt: body,
      read_at: null,
    });
    const bobs = await list(bob);
    expect(bobs.items.map((n) => n.id)).toEqual([got.message.id]);
    expect(bobs.unread).toBe(1);
    expect((await list(ann)).items).toEqual([]);
    expect((await list(cat)).items).toEqual([]);
  });

  it("tells the assignee, then of the visitor's replies; marking read counts down", async ({
    server: s,
    app: a,
  }) => {
    const ann = await operator(s, a);
    const bob = await operator(s, a);
    const c = await conversation(s, a);
    ok(await ann.api.postJson(`/api/conversations/${c}/assign`, { admin: String(bob.id) }));
    const conv = await s.db.conversation.findUniqueOrThrow({ where: { id: BigInt(c) } });
    ok(
      await a.api.postJson(`/api/conversations/${c}/reply`, {
        from_user: String(conv.userId),
        body: "Anyone?",
      }),
    );
    const { items, unread } = await list(bob);
    expect(items.map((n) => [n.kind, n.actor?.id ?? null])).toEqual([
      ["reply", null],
      ["assigned", Number(ann.id)],
    ]);
    expect(unread).toBe(2);
    // Assigning to oneself tells nobody.
    ok(await ann.api.postJson(`/api/conversations/${c}/assign`, { admin: String(ann.id) }));
    expect((await list(ann)).items).toEqual([]);

    const read = ok<{ read: number; unread: number }>(
      await bob.api.postJson("/api/notifications/read", { ids: [items[1]!.id] }),
    );
    expect(read).toEqual({ read: 1, unread: 1 });
    expect((await list(bob)).items[1]!.read_at).toEqual(expect.any(Number));
    expect(ok(await ann.api.postJson("/api/notifications/read", { ids: [items[0]!.id] }))).toEqual({
      read: 0,
      unread: 0,
    });
    expect(ok(await bob.api.postJson("/api/notifications/read", { all: true }))).toEqual({
      read: 1,
      unread: 0,
    });
    const unreadOnly = await bob.api.get("/api/notifications", { unread_only: true });
    expect(ok<Notification[]>(unreadOnly)).toEqual([]);
  });

  it("keeps each operator's channel to that operator, and refuses tokens", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const ann = await operator(s, a);
    const bob = await operator(s, a);
    const socket = await sockets.open({ cookie: ann.cookie });
    const theirs = `notification.${a.app.id}.${bob.id}`;
    const ack = (await socket.emitWithAck("subscribe", {
      channels: [theirs, `notification.${a.app.id}`],
    })) as { subscribed: string[]; refused: string[] };
    expect(ack.subscribed).toEqual([]);
    const tokenSocket = await sockets.open({ token: a.token });
    const tokenAck = (await tokenSocket.emitWithAck("subscribe", { channels: [theirs] })) as {
      subscribed: string[];
    };
    expect(tokenAck.subscribed).toEqual([]);
    errorOf(await a.api.get("/api/notifications"), 403, "PermissionDenied");
    errorOf(await a.api.postJson("/api/notifications/read", { all: true }), 403, "PermissionDenied");
    errorOf(await ann.api.postJson("/api/notifications/read", {}), 400, "ValidationError");
  });
});
