import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin } from "../testing/factories";
import { wakeDelayedConversations } from "./sweeper";
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
const inList = async (a: TestApp, id: bigint, q: string) =>
  (ok(await a.api.get(`/api/apps/${a.app.id}/conversations?${q}`)) as unknown as Json[]).some(
    (x) => x.id === Number(id),
  );

describe("assign", () => {
  it("assigns, reassigns, unassigns with an empty admin, and does nothing when unchanged", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const since = await lastEventId(s.db);
    const d = ok(await post(a, conv.id, "assign", { admin: String(op.id) }));
    expect(Object.keys(d).sort()).toEqual(["id", "part_group"]);
    expect(d.part_group).toBe(d.id);
    expect(await conversationRow(s.db, conv.id)).toMatchObject({
      assigneeId: op.id,
      ...(await recount(s.db, conv.id)),
    });
    expect(ok(await post(a, conv.id, "assign", { admin: String(op.id) }))).toEqual({});
    const ev = await eventsOf(s.db, `conversation_assigned.${a.app.id}`, since);
    expect(ev.map((e) => (e.payload as Json).assignee)).toEqual([
      expect.objectContaining({ id: Number(op.id) }),
    ]);
    ok(await post(a, conv.id, "assign", { admin: "" }));
    expect((await conversationRow(s.db, conv.id)).assigneeId).toBeNull();
    ok(await post(a, conv.id, "assign", { admin: String(a.admin.id) }));
    ok(await post(a, conv.id, "assign"));
    expect((await conversationRow(s.db, conv.id)).assigneeId).toBeNull();
    expect(
      ok(await a.api.postForm(`/api/v1/conversations/${conv.id}/assign`, { admin: String(op.id) })).id,
    ).toBeDefined();
    expect(await parts(s, conv.id)).toBe(6);
  });

  it("refuses unknown admins and bad input, writing nothing", async ({
    server: s,
    app: a,
    other: b,
    scoped,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    fails(await post(a, conv.id, "assign", { admin: String(b.admin.id) }), 400, "LookupError");
    fails(await post(a, conv.id, "assign", { admin: "abc" }), 400, "ValidationError", "admin");
    fails(
      await post(a, conv.id, "assign", { admin: String(a.admin.id), from_admin: String(b.admin.id) }),
      400,
      "LookupError",
    );
    fails(
      await b.api.postForm(`/api/conversations/${conv.id}/assign`, {
        admin: String(b.admin.id),
      }),
      403,
      "PermissionDenied",
    );
    const ro = await scoped(["conversations-read"]);
    fails(
      await ro.postForm(`/api/v1/conversations/${conv.id}/assign`, { admin: String(a.admin.id) }),
      403,
      "PermissionDenied",
    );
    expect(await parts(s, conv.id)).toBe(1);
  });
});

describe("close and reopen", () => {
  it("closes and reopens with system parts and events; repeats change nothing", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const since = await lastEventId(s.db);
    const closed = ok(await post(a, conv.id, "close", { random_id: "9" }));
    expect(closed.id).toBeDefined();
    expect(await conversationRow(s.db, conv.id)).toMatchObject({
      closed: true,
      ...(await recount(s.db, conv.id)),
    });
    expect(ok(await post(a, conv.id, "close"))).toEqual({});
    expect(await inList(a, conv.id, "closed=true")).toBe(true);
    ok(await post(a, conv.id, "reopen"));
    expect(ok(await post(a, conv.id, "reopen"))).toEqual({});
    expect((await conversationRow(s.db, conv.id)).closed).toBe(false);
    const ev = await eventsOf(s.db, `conversation_closed.${a.app.id}`, since);
    expect(ev.map((e) => (e.payload as Json).closed)).toEqual([true, false]);
    expect((ev[0]!.payload as Json).part).toMatchObject({ type: "closed", random_id: 9 });
    ok(await a.api.postForm(`/api/v1/conversations/${conv.id}/close`));
    fails(await a.api.postForm(`/api/v1/conversations/${conv.id}/reopen`), 404, "NotFound");
    fails(await post(a, conv.id, "close", { from_admin: "nobody" }), 400, "ValidationError", "from_admin");
    fails(await post(a, conv.id, "close", { from_admin: String(b.admin.id) }), 400, "LookupError");
    fails(await post(a, 123456789n, "close"), 400, "LookupError");
    expect(await parts(s, conv.id)).toBe(4);
  });
});

describe("delay", () => {
  it("snoozes until a time, cancels, and wakes by itself", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const until = Math.floor(Date.now() / 1000) + 3600;
    const d = ok(await post(a, conv.id, "delay", { until: String(until) }));
    expect(d.id).toBeDefined();
    expect(ok(await a.api.get(`/api/conversations/${conv.id}`)).delayed_until).toBe(until);
    expect(await inList(a, conv.id, "delayed=true")).toBe(true);
    expect(ok(await post(a, conv.id, "delay", { until: String(until) }))).toEqual({});
    ok(await post(a, conv.id, "delay", { cancel: "true" }));
    expect(await inList(a, conv.id, "delayed=false")).toBe(true);
    expect(ok(await post(a, conv.id, "delay", { until: "0" }))).toEqual({});
    const kinds = await s.db.conversationPart.findMany({
      where: { conversationId: conv.id },
      orderBy: { id: "asc" },
    });
    expect(kinds.map((p) => p.type)).toEqual(["reply_user", "delayed", "delay_cancelled"]);

    ok(await post(a, conv.id, "delay", { until: String(Date.now() / 1000 + 1.2) }));
    expect(await inList(a, conv.id, "delayed=true")).toBe(true);
    // The lists read a snooze against the clock: once it has run out, before any sweeper, it is no longer delayed.
    await expect.poll(() => inList(a, conv.id, "delayed=true"), { timeout: 10_000 }).toBe(false);
    expect(await inList(a, conv.id, "delayed=false")).toBe(true);
    const since = await lastEventId(s.db);
    expect(await wakeDelayedConversations(s.db)).toBeGreaterThanOrEqual(1);
    expect((await conversationRow(s.db, conv.id)).delayedUntil).toBeNull();
    const ev = await eventsOf(s.db, `conversation.${a.app.id}`, since);
    expect(ev.map((e) => (e.payload as Json).id)).toContain(Number(conv.id));
    expect(await wakeDelayedConversations(s.db)).toBe(0);
  });

  it("logs the delayed part and the conversation; cancelling logs delay_cancelled; repeats log nothing", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const until = Math.floor(Date.now() / 1000) + 7200;
    let since = await lastEventId(s.db);
    const d = ok(await post(a, conv.id, "delay", { until: String(until), random_id: "41" }));
    const replies = await eventsOf(s.db, `conversation_reply.${a.app.id}`, since);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      type: "conversation_reply",
      userId: conv.userId,
      payload: {
        id: d.id,
        conversation: Number(conv.id),
        type: "delayed",
        random_id: 41,
        body_json: { delayed_until: until },
        from: { id: Number(a.admin.id), type: "admin" },
      },
    });
    const convEv = await eventsOf(s.db, `conversation.${a.app.id}`, since);
    expect(convEv).toHaveLength(1);
    expect(convEv[0]!.payload).toMatchObject({
      id: Number(conv.id),
      delayed_until: until,
      part_last: { id: d.id, type: "delayed" },
    });
    // Nothing else: snoozing is not a close, an assignment or a read.
    const all = await s.db.eventLogEntry.findMany({ where: { id: { gt: since } } });
    expect(all.map((e) => e.type).sort()).toEqual(["conversation", "conversation_reply"]);

    since = await lastEventId(s.db);
    expect(ok(await post(a, conv.id, "delay", { until: String(until) }))).toEqual({});
    expect(await lastEventId(s.db)).toBe(since);

    const cancelled = ok(await post(a, conv.id, "delay", { cancel: "1" }));
    expect((await eventsOf(s.db, `conversation_reply.${a.app.id}`, since)).map((e) => e.payload)).toEqual([
      expect.objectContaining({ id: cancelled.id, type: "delay_cancelled" }),
    ]);
    expect((await eventsOf(s.db, `conversation.${a.app.id}`, since)).map((e) => e.payload)).toEqual([
      expect.objectContaining({ id: Number(conv.id), delayed_until: null }),
    ]);
    since = await lastEventId(s.db);
    expect(ok(await post(a, conv.id, "delay", { until: "0" }))).toEqual({});
    expect(await lastEventId(s.db)).toBe(since);
  });

  it("snoozing a closed conversation reopens it; bad times are refused", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    ok(await post(a, conv.id, "close"));
    const since = await lastEventId(s.db);
    ok(await post(a, conv.id, "delay", { until: String(Date.now() / 1000 + 600) }));
    expect((await conversationRow(s.db, conv.id)).closed).toBe(false);
    // Subscribers to closes hear of the reopening, as when a visitor's reply reopens a conversation.
    expect((await eventsOf(s.db, `conversation_closed.${a.app.id}`, since)).map((e) => e.payload)).toEqual([
      { conversation: Number(conv.id), closed: false, part: null },
    ]);
    fails(
      await post(a, conv.id, "delay", { until: String(Date.now() / 1000 - 10) }),
      400,
      "ValidationError",
      "until",
    );
    fails(await post(a, conv.id, "delay"), 400, "ValidationError", "until");
    fails(await post(a, conv.id, "delay", { until: "soon" }), 400, "ValidationError", "until");
    fails(await post(a, conv.id, "delay", { until: "1e20" }), 400, "ValidationError", "until");
    fails(
      await post(a, conv.id, "delay", { until: String(Date.now() / 1000 + 60), cancel: "1" }),
      400,
      "ValidationError",
      "cancel",
    );
    expect(await parts(s, conv.id)).toBe(3);
  });
});
