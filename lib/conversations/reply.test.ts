import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin } from "../testing/factories";
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

const reply = (a: TestApp, id: bigint, form: Record<string, string>) =>
  a.api.postForm(`/api/conversations/${id}/reply`, form);
const partCount = (s: TestServer, id: bigint) =>
  s.db.conversationPart.count({ where: { conversationId: id } });

describe("POST /conversations/{id}/reply", () => {
  it("replies as the app's default admin and keeps every conversation field exact", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const before = await conversationRow(s.db, conv.id);
    expect(before).toMatchObject({
      read: false,
      unreadPartsCount: 1,
      partsCount: 1,
      answered: false,
      replied: false,
    });
    const since = await lastEventId(s.db);
    const part = ok(await reply(a, conv.id, { body: "Hi there", random_id: "77" }));
    expect(part).toMatchObject({
      conversation: Number(conv.id),
      body: "Hi there",
      type: "reply_admin",
      direction: "a2u",
      sent_via: "api",
      random_id: 77,
      read: false,
      attachments: [],
      external_id: null,
      part_group: part.id,
      from: { id: Number(a.admin.id), type: "admin", name: a.admin.name },
    });
    const after = await conversationRow(s.db, conv.id);
    expect(after).toMatchObject({
      ...(await recount(s.db, conv.id)),
      read: true,
      unreadPartsCount: 0,
      replied: true,
      answered: true,
      lastAdminId: a.admin.id,
    });
    expect(after.lastUpdate.getTime()).toBeGreaterThanOrEqual(before.lastUpdate.getTime());
    const ev = await eventsOf(s.db, `conversation_reply.${a.app.id}`, since);
    expect(ev.map((e) => (e.payload as Json).random_id)).toEqual([77]);
    expect((await eventsOf(s.db, `conversation.${a.app.id}`, since)).length).toBe(1);
    const user = await s.db.user.findUniqueOrThrow({ where: { id: conv.userId } });
    expect(user.lastContacted).not.toBeNull();
  });

  it("sends as the visitor with from_user (default_user or the user's ID), ignoring type", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const p1 = ok(await reply(a, conv.id, { body: "me again", from_user: "default_user", type: "note" }));
    expect(p1).toMatchObject({ type: "reply_user", direction: "u2a", from: Number(conv.userId) });
    const p2 = ok(await reply(a, conv.id, { body: "and again", from_user: String(conv.userId) }));
    expect(p2.from).toBe(Number(conv.userId));
    expect(await conversationRow(s.db, conv.id)).toMatchObject({
      unreadPartsCount: 3,
      read: false,
      answered: false,
    });
  });

  it("refuses a from_user that is not the conversation's user, or unknown", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const other = await startConversation(a.api, s.db, a.app.id);
    fails(
      await reply(a, conv.id, { body: "x", from_user: String(other.userId) }),
      400,
      "ValidationError",
      "from_user",
    );
    fails(await reply(a, conv.id, { body: "x", from_user: "999999999" }), 400, "LookupError");
    fails(await reply(a, conv.id, { body: "x", from_user: "someone" }), 400, "ValidationError", "from_user");
    fails(
      await reply(a, conv.id, { body: "x", from_user: "default_user", from_admin: "default_admin" }),
      400,
      "ValidationError",
      "from_admin",
    );
    expect(await partCount(s, conv.id)).toBe(1);
  });

  it("replies as from_admin (an ID or default_admin) and refuses admins of other apps", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    expect(ok(await reply(a, conv.id, { body: "a", from_admin: String(op.id) })).from).toMatchObject({
      id: Number(op.id),
    });
    expect((await conversationRow(s.db, conv.id)).lastAdminId).toBe(op.id);
    expect(ok(await reply(a, conv.id, { body: "b", from_admin: "default_admin" })).from).toMatchObject({
      id: Number(a.admin.id),
    });
    fails(await reply(a, conv.id, { body: "c", from_admin: String(b.admin.id) }), 400, "LookupError");
    fails(await reply(a, conv.id, { body: "c", from_admin: "boss" }), 400, "ValidationError", "from_admin");
    expect(await partCount(s, conv.id)).toBe(3);
  });

  it("stores notes and articles with their types; notes leave read and answered alone", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const note = ok(await reply(a, conv.id, { body: "internal", type: "note" }));
    expect(note).toMatchObject({ type: "note", read: true });
    expect(await conversationRow(s.db, conv.id)).toMatchObject({
      read: false,
      answered: false,
      replied: false,
    });
    const article = ok(await reply(a, conv.id, { body: "See the docs", type: "article" }));
    expect(article.type).toBe("article");
    expect(await conversationRow(s.db, conv.id)).toMatchObject({
      read: true,
      answered: true,
      replyLastId: BigInt(article.id as number),
    });
    fails(await reply(a, conv.id, { body: "x", type: "reply_user" }), 400, "ValidationError", "type");
  });

  it("accepts body_json, referrer and quick-reply actions, and checks them", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const actions = [
      { type: "quick_reply", body: "Yes", meta_data: { answer: 1 } },
      { type: "quick_reply", body: "No" },
    ];
    const part = ok(
      await reply(a, conv.id, {
        body: "Pick one",
        body_json: JSON.stringify({ kind: "buttons" }),
        referrer: "https://shop.example/cart",
        actions: JSON.stringify(actions),
      }),
    );
    expect(part).toMatchObject({
      body_json: { kind: "buttons" },
      referrer: "https://shop.example/cart",
      actions,
    });
    const bad: [Record<string, string>, string][] = [
      [{ actions: JSON.stringify([{ type: "link", body: "x" }]) }, "actions.0.type"],
      [{ actions: JSON.stringify([{ type: "quick_reply", body: "x".repeat(301) }]) }, "actions.0.body"],
      [{ actions: JSON.stringify([{ type: "quick_reply", body: "" }]) }, "actions.0.body"],
      [{ actions: "not json" }, "actions"],
      [{ body_json: "[1,2]" }, "body_json"],
      [{ body_json: "{bad" }, "body_json"],
      [{ referrer: "x".repeat(2049) }, "referrer"],
      [{ random_id: "4294967296" }, "random_id"],
      [{ random_id: "1.5" }, "random_id"],
      [{ auto_assign_random_id: "abc" }, "auto_assign_random_id"],
      [{ external_id: "" }, "external_id"],
      [{ external_id: "e".repeat(256) }, "external_id"],
      [{ external_id: "a\u0000b" }, "external_id"],
      [{ body: "nul \u0000 inside" }, "body"],
      [{ body_json: '{"a":"\\u0000"}' }, "body_json"],
    ];
    const since = await lastEventId(s.db);
    for (const [form, field] of bad)
      fails(await reply(a, conv.id, { body: "x", ...form }), 400, "ValidationError", field);
    expect(await lastEventId(s.db)).toBe(since);
    fails(
      await reply(a, conv.id, { body: "x", from_user: "default_user", actions: JSON.stringify(actions) }),
      400,
      "ValidationError",
      "actions",
    );
    expect(await partCount(s, conv.id)).toBe(2);
    const longest = ok(await reply(a, conv.id, { body: "x", external_id: "e".repeat(255) }));
    expect(longest.external_id).toBe("e".repeat(255));
  });

  it("answers ReplyTooBig over 10,000 characters and refuses an empty message", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    expect((await reply(a, conv.id, { body: "x".repeat(10_000) })).status).toBe(200);
    fails(await reply(a, conv.id, { body: "x".repeat(10_001) }), 400, "ReplyTooBig", "body");
    fails(await reply(a, conv.id, { body: "" }), 400, "ValidationError", "body");
    fails(await reply(a, conv.id, {}), 400, "ValidationError", "body");
    expect(await partCount(s, conv.id)).toBe(2);
  });

  it("returns the stored part for a repeated external_id, never a duplicate", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const first = ok(
      await reply(a, conv.id, { body: "once", external_id: "ext-1", auto_assign: String(a.admin.id) }),
    );
    const again = ok(
      await reply(a, conv.id, { body: "twice", external_id: "ext-1", auto_assign: String(a.admin.id) }),
    );
    expect(again.id).toBe(first.id);
    expect(again.body).toBe("once");
    expect(again.external_id).toBe("ext-1");
    expect((again.assign_part as Json).id).toBe((first.assign_part as Json).id);
    expect(await partCount(s, conv.id)).toBe(3);
    const other = await startConversation(a.api, s.db, a.app.id);
    expect(ok(await reply(a, other.id, { body: "elsewhere", external_id: "ext-1" })).id).not.toBe(first.id);
  });

  it("auto_assign stores the assigned part first, then the message, in one group", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const since = await lastEventId(s.db);
    const part = ok(
      await reply(a, conv.id, {
        body: "on it",
        auto_assign: String(op.id),
        auto_assign_random_id: "5",
        random_id: "6",
      }),
    );
    const assign = part.assign_part as Json;
    expect(assign).toMatchObject({
      type: "assigned",
      random_id: 5,
      assignee: { id: Number(op.id), type: "admin" },
    });
    expect(Number(assign.id)).toBeLessThan(Number(part.id));
    expect(part.part_group).toBe(assign.id);
    expect(assign.part_group).toBe(assign.id);
    expect(await conversationRow(s.db, conv.id)).toMatchObject({ assigneeId: op.id, partsCount: 3 });
    const assigned = await eventsOf(s.db, `conversation_assigned.${a.app.id}`, since);
    expect(assigned.length).toBe(1);
    fails(await reply(a, conv.id, { body: "x", auto_assign: String(b.admin.id) }), 400, "LookupError");
    fails(await reply(a, conv.id, { body: "x", auto_assign: "0" }), 400, "ValidationError", "auto_assign");
    expect(await partCount(s, conv.id)).toBe(3);
  });

  it("a visitor's reply reopens a closed conversation and wakes a delayed one", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    ok(await a.api.postForm(`/api/conversations/${conv.id}/close`));
    const since = await lastEventId(s.db);
    ok(await reply(a, conv.id, { body: "still broken", from_user: "default_user" }));
    expect((await conversationRow(s.db, conv.id)).closed).toBe(false);
    const closedEv = await eventsOf(s.db, `conversation_closed.${a.app.id}`, since);
    expect(closedEv.map((e) => (e.payload as Json).closed)).toEqual([false]);
    ok(
      await a.api.postForm(`/api/conversations/${conv.id}/delay`, {
        until: String(Date.now() / 1000 + 3600),
      }),
    );
    ok(await reply(a, conv.id, { body: "hello?", from_user: "default_user" }));
    expect((await conversationRow(s.db, conv.id)).delayedUntil).toBeNull();
    ok(await a.api.postForm(`/api/conversations/${conv.id}/close`));
    ok(await reply(a, conv.id, { body: "operator follow-up" }));
    expect((await conversationRow(s.db, conv.id)).closed).toBe(true);
  });

  it("answers LookupError for an unknown conversation and PermissionDenied for another app's", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    fails(await reply(a, 987654321n, { body: "x" }), 400, "LookupError");
    const theirs = await startConversation(b.api, s.db, b.app.id);
    fails(await reply(a, theirs.id, { body: "x" }), 403, "PermissionDenied");
    expect(await partCount(s, theirs.id)).toBe(1);
    fails(await a.api.postForm(`/api/conversations/abc/reply`, { body: "x" }), 400, "ValidationError", "id");
  });
});
