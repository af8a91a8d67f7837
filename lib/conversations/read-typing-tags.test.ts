import { describe, expect } from "vitest";
import { io as connect } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import {
  conversationRow,
  eventsOf,
  fails,
  lastEventId,
  ok,
  recount,
  startConversation,
  type Json,
} from "./testing";

const post = (a: TestApp, id: bigint, what: string, form: Record<string, string> = {}) =>
  a.api.postForm(`/api/conversations/${id}/${what}`, form);
const parts = (s: TestServer, id: bigint) => s.db.conversationPart.count({ where: { conversationId: id } });

describe("read", () => {
  it("an operator's read clears unread; a visitor's read marks operators' replies", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    ok(await post(a, conv.id, "reply", { body: "more", from_user: "default_user" }));
    expect(await conversationRow(s.db, conv.id)).toMatchObject({ read: false, unreadPartsCount: 2 });
    const since = await lastEventId(s.db);
    expect(ok(await post(a, conv.id, "read"))).toEqual({});
    expect(await conversationRow(s.db, conv.id)).toMatchObject({ read: true, unreadPartsCount: 0 });
    expect(await s.db.conversationPart.count({ where: { conversationId: conv.id, read: false } })).toBe(0);
    ok(await post(a, conv.id, "read"));
    const ev = await eventsOf(s.db, `conversation_read.${a.app.id}`, since);
    expect(ev.map((e) => (e.payload as Json).by)).toEqual(["admin"]);
    const reply = ok(await post(a, conv.id, "reply", { body: "answer" }));
    expect(reply.read).toBe(false);
    ok(await post(a, conv.id, "read", { from_user: "default_user" }));
    expect(
      (await s.db.conversationPart.findUniqueOrThrow({ where: { id: BigInt(reply.id as number) } })).read,
    ).toBe(true);
    fails(
      await post(a, conv.id, "read", { from_user: "default_user", from_admin: "default_admin" }),
      400,
      "ValidationError",
    );
    fails(await b.api.postForm(`/api/conversations/${conv.id}/read`), 403, "PermissionDenied");
  });

  it("refuses a from_user that is another user, unknown or a word, writing nothing", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    ok(await post(a, conv.id, "reply", { body: "unread by the visitor" }));
    const other = await startConversation(a.api, s.db, a.app.id);
    const foreign = await startConversation(b.api, s.db, b.app.id);
    const before = await conversationRow(s.db, conv.id);
    const since = await lastEventId(s.db);
    const invalid: [string, string][] = [
      [String(other.userId), "from_user"],
      ["someone", "from_user"],
      ["0", "from_user"],
      ["-1", "from_user"],
      ["99999999999999999999", "from_user"],
    ];
    for (const [from_user, field] of invalid)
      fails(await post(a, conv.id, "read", { from_user }), 400, "ValidationError", field);
    for (const from_user of ["987654321", String(foreign.userId)]) {
      const r = await post(a, conv.id, "read", { from_user });
      fails(r, 400, "LookupError");
      expect(r.body.meta.error_message).toContain("(from_user)");
    }
    expect(await conversationRow(s.db, conv.id)).toEqual(before);
    expect(
      await s.db.conversationPart.count({
        where: { conversationId: conv.id, direction: "a2u", read: false },
      }),
    ).toBe(1);
    expect(await lastEventId(s.db)).toBe(since);
    ok(await post(a, conv.id, "read", { from_user: String(conv.userId) }));
    expect(await eventsOf(s.db, `conversation_read.${a.app.id}`, since)).toHaveLength(1);
  });
});

describe("settyping", () => {
  it("goes straight to conversation_typing subscribers and stores nothing", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const sock = connect(s.url, { path: "/socket.io", auth: { token: a.token }, transports: ["websocket"] });
    await new Promise<void>((resolve, reject) => {
      sock.on("connect", () => resolve());
      sock.on("connect_error", reject);
    });
    s.server.runtime.io!.in(sock.id!).socketsJoin(`conversation_typing.${a.app.id}`);
    const got: Json[] = [];
    sock.on("message", (m: Json) => got.push(m));
    const since = await lastEventId(s.db);
    expect(ok(await post(a, conv.id, "settyping", { body: "Hel", from_user: "default_user" }))).toEqual({});
    ok(await post(a, conv.id, "settyping", { body: "42" }));
    ok(await a.api.postForm(`/api/v1/conversations/${conv.id}/settyping`, { body: "v1" }));
    // Through Redis, delivery can take longer than a moment on a busy machine: wait for the three, up to 10 s.
    for (const end = Date.now() + 10_000; got.length < 3 && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 50));
    sock.close();
    expect(got.map((m) => (m.message as Json).body)).toEqual(["Hel", "42", "v1"]);
    expect(got[0]).toMatchObject({
      channel: `conversation_typing.${a.app.id}`,
      id: null,
      message: { from: Number(conv.userId) },
    });
    expect((got[1]!.message as Json).from).toMatchObject({ id: Number(a.admin.id), type: "admin" });
    expect(await lastEventId(s.db)).toBe(since);
    fails(await post(a, conv.id, "settyping", { from_user: "12345678" }), 400, "LookupError");
    fails(await post(a, conv.id, "settyping", { body: "x".repeat(10_001) }), 400, "ValidationError", "body");
    fails(await b.api.postForm(`/api/conversations/${conv.id}/settyping`), 403, "PermissionDenied");
  });
});

describe("tags", () => {
  it("adds and removes in v2 (POST, DELETE); present or absent is 200 with {}", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const since = await lastEventId(s.db);
    const added = ok(await post(a, conv.id, "tag", { tag: "vip", random_id: "3" }));
    expect(Object.keys(added).sort()).toEqual(["id", "part_group"]);
    expect(ok(await post(a, conv.id, "tag", { tag: "vip" }))).toEqual({});
    ok(await post(a, conv.id, "tag", { tag: "billing issue" }));
    expect((await conversationRow(s.db, conv.id)).tags).toEqual(["vip", "billing issue"]);
    const removed = ok(await a.api.del(`/api/conversations/${conv.id}/tag?tag=vip`));
    expect(removed.id).toBeDefined();
    expect(ok(await a.api.del(`/api/conversations/${conv.id}/tag?tag=vip`))).toEqual({});
    ok(await post(a, conv.id, "tag", { tag: "billing issue", action: "delete" }));
    expect(await conversationRow(s.db, conv.id)).toMatchObject({
      tags: [],
      ...(await recount(s.db, conv.id)),
    });
    const addEv = await eventsOf(s.db, `conversation_tag_added.${a.app.id}`, since);
    expect(addEv.map((e) => (e.payload as Json).tag)).toEqual(["vip", "billing issue"]);
    expect((addEv[0]!.payload as Json).part).toMatchObject({ type: "tag_added", random_id: 3 });
    const delEv = await eventsOf(s.db, `conversation_tag_deleted.${a.app.id}`, since);
    expect(delEv.map((e) => (e.payload as Json).tag)).toEqual(["vip", "billing issue"]);
  });

  it("has v1's POST with action add/delete, and refuses bad tags writing nothing", async ({
    server: s,
    app: a,
    other: b,
    scoped,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const v1 = (form: Record<string, string>) => a.api.postForm(`/api/v1/conversations/${conv.id}/tag`, form);
    expect(ok(await v1({ action: "add", tag: "lead" })).id).toBeDefined();
    expect(ok(await v1({ action: "add", tag: "lead" }))).toEqual({});
    expect(ok(await v1({ action: "delete", tag: "lead" })).id).toBeDefined();
    expect(ok(await v1({ action: "delete", tag: "lead" }))).toEqual({});
    expect(ok(await a.api.del(`/api/v1/conversations/${conv.id}/tag?tag=nothing`))).toEqual({});
    const before = await parts(s, conv.id);
    fails(await v1({ tag: "x" }), 400, "ValidationError", "action");
    fails(await v1({ action: "toggle", tag: "x" }), 400, "ValidationError", "action");
    fails(await v1({ action: "add" }), 400, "ValidationError", "tag");
    fails(await v1({ action: "add", tag: "a,b" }), 400, "ValidationError", "tag");
    fails(await post(a, conv.id, "tag", { tag: "" }), 400, "ValidationError", "tag");
    fails(await post(a, conv.id, "tag", { tag: "t".repeat(256) }), 400, "ValidationError", "tag");
    fails(await post(a, conv.id, "tag", { tag: "ok", from_admin: String(b.admin.id) }), 400, "LookupError");
    fails(await a.api.del(`/api/conversations/${conv.id}/tag`), 400, "ValidationError", "tag");
    const ro = await scoped(["conversations-read"]);
    fails(
      await ro.postForm(`/api/v1/conversations/${conv.id}/tag`, { action: "add", tag: "x" }),
      403,
      "PermissionDenied",
    );
    fails(await b.api.postForm(`/api/conversations/${conv.id}/tag`, { tag: "x" }), 403, "PermissionDenied");
    expect(await parts(s, conv.id)).toBe(before);
    expect((await conversationRow(s.db, conv.id)).tags).toEqual([]);
  });
});
