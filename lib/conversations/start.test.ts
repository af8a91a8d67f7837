import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin } from "../testing/factories";
import { eventsOf, fails, lastEventId, ok, unique, type Json } from "./testing";

const anonymous = (s: TestServer, a: TestApp) => s.db.user.create({ data: { appId: a.app.id } });
const inInbox = async (a: TestApp, id: number) =>
  (ok(await a.api.get(`/api/apps/${a.app.id}/conversations`)) as unknown as Json[]).some((x) => x.id === id);

describe("POST /users/{id}/startconversation", () => {
  it("opens a conversation with the visitor's message; the user becomes a lead", async ({
    server: s,
    app: a,
  }) => {
    const user = await anonymous(s, a);
    expect(user.isLead).toBe(false);
    const since = await lastEventId(s.db);
    const d = ok(
      await a.api.postForm(`/api/users/${user.id}/startconversation`, {
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
    expect(await inInbox(a, d.id as number)).toBe(true);
  });

  it("with by_user_id finds or creates the user, once even when racing", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const uid = unique("visitor");
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        a.api.postForm(`/api/users/${uid}/startconversation`, { by_user_id: "true", body: `hi ${i}` }),
      ),
    );
    for (const r of results) ok(r);
    const users = await s.db.user.findMany({ where: { appId: a.app.id, userId: uid } });
    expect(users).toHaveLength(1);
    expect(users[0]!.conversationCount).toBe(3);
    fails(
      await a.api.postForm(`/api/users/${uid}/startconversation`, {
        by_user_id: "1",
        body: "x",
        app: String(b.app.id),
      }),
      403,
      "PermissionDenied",
    );
  });

  it("has a v1 form answering {id}, needing conversations-write and as-user", async ({
    server: s,
    app: a,
    scoped,
  }) => {
    const user = await anonymous(s, a);
    const d = ok(await a.api.postForm(`/api/v1/users/${user.id}/startconversation`, { body: "v1" }));
    expect(Object.keys(d)).toEqual(["id"]);
    const noAsUser = await scoped(["conversations-write"]);
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

  it("refuses bad input, writing nothing", async ({ server: s, app: a, other: b }) => {
    const user = await anonymous(s, a);
    const path = `/api/users/${user.id}/startconversation`;
    fails(await a.api.postForm(path, {}), 400, "ValidationError", "body");
    fails(await a.api.postForm(path, { body: "   " }), 400, "ValidationError", "body");
    fails(await a.api.postForm(path, { body: "x".repeat(10_001) }), 400, "ReplyTooBig", "body");
    fails(
      await a.api.postForm(path, { body: "x", random_id: "-2147483649" }),
      400,
      "ValidationError",
      "random_id",
    );
    fails(
      await a.api.postForm(path, { body: "x", referrer: "r".repeat(2049) }),
      400,
      "ValidationError",
      "referrer",
    );
    fails(await a.api.postForm(path, { body: "x", channel: "99999999" }), 400, "LookupError");
    fails(
      await a.api.postForm(`/api/users/abc/startconversation`, { body: "x" }),
      400,
      "ValidationError",
      "id",
    );
    fails(await a.api.postForm(`/api/users/99999999/startconversation`, { body: "x" }), 400, "LookupError");
    const theirs = await s.db.user.create({ data: { appId: b.app.id } });
    fails(
      await a.api.postForm(`/api/users/${theirs.id}/startconversation`, { body: "x" }),
      403,
      "PermissionDenied",
    );
    expect(await s.db.conversation.count({ where: { userId: { in: [user.id, theirs.id] } } })).toBe(0);
    expect((await s.db.user.findUniqueOrThrow({ where: { id: user.id } })).conversationCount).toBe(0);
  });
});

describe("POST /users/{id}/sendmessage", () => {
  it("opens an operator's conversation, shown in the Inbox once the visitor replies", async ({
    server: s,
    app: a,
  }) => {
    const user = await anonymous(s, a);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const since = await lastEventId(s.db);
    const d = ok(
      await a.api.postForm(`/api/users/${user.id}/sendmessage`, {
        body: "Can we help?",
        from_admin: String(op.id),
        random_id: "12",
      }),
    );
    expect(d.part).toMatchObject({ type: "reply_admin", from: { id: Number(op.id) }, random_id: 12 });
    const id = d.id as number;
    const conv = ok(await a.api.get(`/api/conversations/${id}`));
    expect(conv).toMatchObject({
      message: { type: "manual", sent_via: "api" },
      replied: true,
      last_admin: { id: Number(op.id) },
    });
    expect((await s.db.user.findUniqueOrThrow({ where: { id: user.id } })).conversationCount).toBe(1);
    expect(await eventsOf(s.db, `conversation_started_user.${a.app.id}`, since)).toHaveLength(0);
    expect(await eventsOf(s.db, `conversation.${a.app.id}`, since)).toHaveLength(1);
    expect(await inInbox(a, id)).toBe(false);
    ok(await a.api.postForm(`/api/conversations/${id}/reply`, { body: "yes", from_user: "default_user" }));
    expect(await inInbox(a, id)).toBe(true);
  });

  it("finds users by_user_id but never creates them", async ({ server: s, app: a }) => {
    const user = await s.db.user.create({ data: { appId: a.app.id, userId: unique("crm") } });
    ok(await a.api.postForm(`/api/users/${user.userId}/sendmessage`, { by_user_id: "true", body: "hello" }));
    const ghost = unique("ghost");
    fails(
      await a.api.postForm(`/api/users/${ghost}/sendmessage`, { by_user_id: "true", body: "hello" }),
      400,
      "LookupError",
    );
    expect(await s.db.user.count({ where: { userId: ghost } })).toBe(0);
  });

  it("has a v1 form and refuses bad input", async ({ server: s, app: a, other: b, scoped }) => {
    const user = await anonymous(s, a);
    expect(
      Object.keys(ok(await a.api.postForm(`/api/v1/users/${user.id}/sendmessage`, { body: "v1" }))),
    ).toEqual(["id"]);
    fails(await a.api.postForm(`/api/v1/users/${user.id}/sendmessage`, {}), 400, "ValidationError", "body");
    const path = `/api/users/${user.id}/sendmessage`;
    fails(await a.api.postForm(path, {}), 400, "ValidationError", "body");
    fails(await a.api.postForm(path, { body: "x".repeat(10_001) }), 400, "ReplyTooBig");
    fails(await a.api.postForm(path, { body: "x", from_admin: String(b.admin.id) }), 400, "LookupError");
    fails(await a.api.postForm(path, { body: "x", body_json: "[]" }), 400, "ValidationError", "body_json");
    const ro = await scoped(["conversations-read"]);
    fails(await ro.postForm(`/api/v1/users/${user.id}/sendmessage`, { body: "x" }), 403, "PermissionDenied");
    expect(await s.db.conversation.count({ where: { userId: user.id } })).toBe(1);
  });
});
