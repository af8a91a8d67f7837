import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeToken } from "../testing/factories";
import { client, type Client } from "../testing/http";
import { eventsOf, fails, lastEventId, ok, unique, type Json } from "./testing";

let s: TestServer;
let a: TestApp;
let b: TestApp;
let c: Client;

it.beforeAll(({ server, app, other }) => {
  s = server;
  a = app;
  b = other;
  c = app.api;
});

const anonymous = () => s.db.user.create({ data: { appId: a.app.id } });
const inInbox = async (id: number) =>
  (ok(await c.get(`/api/apps/${a.app.id}/conversations`)) as unknown as Json[]).some((x) => x.id === id);

describe("POST /users/{id}/startconversation", () => {
  it("opens a conversation with the visitor's message; the user becomes a lead", async () => {
    const user = await anonymous();
    expect(user.isLead).toBe(false);
    const since = await lastEventId(s.db);
    const d = ok(
      await c.postForm(`/api/users/${user.id}/startconversation`, {
        body: "Where is my order?",
        random_id: "4000000000",
        referrer: "https://shop.example/orders",
      }),
    );
    const part = d.part as Json;
    expect(part).toMatchObject({
      type: "reply_user",
      from: Number(user.id),
      random_id: 4000000000,
      referrer: "https://shop.example/orders",
    });
    const conv = await s.db.conversation.findUniqueOrThrow({ where: { id: BigInt(d.id as number) } });
    expect(conv).toMatchObject({
      userId: user.id,
      partsCount: 1,
      unreadPartsCount: 1,
      read: false,
      hasUserReplies: true,
      message: null,
    });
    const after = await s.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after).toMatchObject({ conversationCount: 1, isLead: true, isLeadV1: true });
    expect(after.lastReply).not.toBeNull();
    const started = await eventsOf(s.db, `conversation_started_user.${a.app.id}`, since);
    expect(started.map((e) => (e.payload as Json).id)).toEqual([d.id]);
    const replies = await eventsOf(s.db, `conversation_reply.${a.app.id}`, since);
    expect(replies.map((e) => (e.payload as Json).random_id)).toEqual([4000000000]);
    expect(await inInbox(d.id as number)).toBe(true);
  });

  it("with by_user_id finds or creates the user, once even when racing", async () => {
    const uid = unique("visitor");
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        c.postForm(`/api/users/${uid}/startconversation`, { by_user_id: "true", body: `hi ${i}` }),
      ),
    );
    for (const r of results) ok(r);
    const users = await s.db.user.findMany({ where: { appId: a.app.id, userId: uid } });
    expect(users).toHaveLength(1);
    expect(users[0]!.conversationCount).toBe(3);
    fails(
      await c.postForm(`/api/users/${uid}/startconversation`, {
        by_user_id: "1",
        body: "x",
        app: String(b.app.id),
      }),
      403,
      "PermissionDenied",
    );
  });

  it("has a v1 form answering {id}, needing conversations-write and as-user", async () => {
    const user = await anonymous();
    const d = ok(await c.postForm(`/api/v1/users/${user.id}/startconversation`, { body: "v1" }));
    expect(Object.keys(d)).toEqual(["id"]);
    const noAsUser = client(s, await makeToken(s.db, a.app.id, ["conversations-write"]));
    fails(
      await noAsUser.postForm(`/api/v1/users/${user.id}/startconversation`, { body: "v1" }),
      403,
      "PermissionDenied",
    );
    // Starting as the visitor needs as-user in every version.
    fails(
      await noAsUser.postForm(`/api/users/${user.id}/startconversation`, { body: "v2" }),
      403,
      "PermissionDenied",
    );
  });

  it("refuses bad input, writing nothing", async () => {
    const user = await anonymous();
    const path = `/api/users/${user.id}/startconversation`;
    fails(await c.postForm(path, {}), 400, "ValidationError", "body");
    fails(await c.postForm(path, { body: "   " }), 400, "ValidationError", "body");
    fails(await c.postForm(path, { body: "x".repeat(10_001) }), 400, "ReplyTooBig", "body");
    fails(
      await c.postForm(path, { body: "x", random_id: "-2147483649" }),
      400,
      "ValidationError",
      "random_id",
    );
    fails(
      await c.postForm(path, { body: "x", referrer: "r".repeat(2049) }),
      400,
      "ValidationError",
      "referrer",
    );
    fails(await c.postForm(path, { body: "x", channel: "99999999" }), 400, "LookupError");
    fails(await c.postForm(`/api/users/abc/startconversation`, { body: "x" }), 400, "ValidationError", "id");
    fails(await c.postForm(`/api/users/99999999/startconversation`, { body: "x" }), 400, "LookupError");
    const theirs = await s.db.user.create({ data: { appId: b.app.id } });
    fails(
      await c.postForm(`/api/users/${theirs.id}/startconversation`, { body: "x" }),
      403,
      "PermissionDenied",
    );
    expect(await s.db.conversation.count({ where: { userId: { in: [user.id, theirs.id] } } })).toBe(0);
    expect((await s.db.user.findUniqueOrThrow({ where: { id: user.id } })).conversationCount).toBe(0);
  });
});

describe("POST /users/{id}/sendmessage", () => {
  it("opens an operator's conversation, shown in the Inbox once the visitor replies", async () => {
    const user = await anonymous();
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const since = await lastEventId(s.db);
    const d = ok(
      await c.postForm(`/api/users/${user.id}/sendmessage`, {
        body: "Can we help?",
        from_admin: String(op.id),
        random_id: "12",
      }),
    );
    expect(d.part).toMatchObject({ type: "reply_admin", from: { id: Number(op.id) }, random_id: 12 });
    const id = d.id as number;
    const conv = ok(await c.get(`/api/conversations/${id}`));
    expect(conv).toMatchObject({
      message: { type: "manual", sent_via: "api" },
      replied: true,
      last_admin: { id: Number(op.id) },
    });
    expect((await s.db.user.findUniqueOrThrow({ where: { id: user.id } })).conversationCount).toBe(1);
    expect(await eventsOf(s.db, `conversation_started_user.${a.app.id}`, since)).toHaveLength(0);
    expect(await eventsOf(s.db, `conversation.${a.app.id}`, since)).toHaveLength(1);
    expect(await inInbox(id)).toBe(false);
    ok(await c.postForm(`/api/conversations/${id}/reply`, { body: "yes", from_user: "default_user" }));
    expect(await inInbox(id)).toBe(true);
  });

  it("finds users by_user_id but never creates them", async () => {
    const user = await s.db.user.create({ data: { appId: a.app.id, userId: unique("crm") } });
    ok(await c.postForm(`/api/users/${user.userId}/sendmessage`, { by_user_id: "true", body: "hello" }));
    const ghost = unique("ghost");
    fails(
      await c.postForm(`/api/users/${ghost}/sendmessage`, { by_user_id: "true", body: "hello" }),
      400,
      "LookupError",
    );
    expect(await s.db.user.count({ where: { userId: ghost } })).toBe(0);
  });

  it("has a v1 form and refuses bad input", async () => {
    const user = await anonymous();
    expect(Object.keys(ok(await c.postForm(`/api/v1/users/${user.id}/sendmessage`, { body: "v1" })))).toEqual(
      ["id"],
    );
    fails(await c.postForm(`/api/v1/users/${user.id}/sendmessage`, {}), 400, "ValidationError", "body");
    const path = `/api/users/${user.id}/sendmessage`;
    fails(await c.postForm(path, {}), 400, "ValidationError", "body");
    fails(await c.postForm(path, { body: "x".repeat(10_001) }), 400, "ReplyTooBig");
    fails(await c.postForm(path, { body: "x", from_admin: String(b.admin.id) }), 400, "LookupError");
    fails(await c.postForm(path, { body: "x", body_json: "[]" }), 400, "ValidationError", "body_json");
    const ro = client(s, await makeToken(s.db, a.app.id, ["conversations-read"]));
    fails(await ro.postForm(`/api/v1/users/${user.id}/sendmessage`, { body: "x" }), 403, "PermissionDenied");
    expect(await s.db.conversation.count({ where: { userId: user.id } })).toBe(1);
  });
});
