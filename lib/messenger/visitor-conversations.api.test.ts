import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, type TestVisitor } from "./testing";
import type { VisitorConversation, VisitorPart } from "./visitor-schemas";

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);

type Started = { conversation: VisitorConversation; part: VisitorPart };
type Page<T> = { items: T[]; meta: Record<string, unknown> };

const BASE = "/api/v2/messenger/conversations";

async function start(v: TestVisitor, body = "Hello", extra: Record<string, unknown> = {}) {
  return ok<Started>(await v.api.postJson(BASE, { body, ...extra }));
}

async function partsOf(v: TestVisitor, id: number | string, params = {}): Promise<Page<VisitorPart>> {
  const r = await v.api.get(`${BASE}/${id}/parts`, params);
  return { items: ok<VisitorPart[]>(r), meta: r.body.meta };
}

/** An operator's reply (or note, or article) through the operators' API, with the app's token. */
async function operator(a: TestApp, id: number | string, fields: Record<string, string>) {
  return ok<{ id: number }>(await a.api.postForm(`/api/v2/conversations/${id}/reply`, fields));
}

describe("a visitor's conversations", () => {
  it("starts a conversation, replies in it and lists it, newest first", async ({ server: s, app: a }) => {
    const v = await bootTestVisitor(s, a);
    const first = await start(v, "Hi there", { referrer: "http://127.0.0.1:9/pricing", random_id: 77 });
    expect(first.part).toMatchObject({
      type: "reply_user",
      body: "Hi there",
      from: { kind: "user" },
      attachments: [],
      random_id: 77,
    });
    expect(first.conversation).toMatchObject({ closed: false, unread: 0, assignee: null });
    expect(first.conversation.last_part?.id).toBe(first.part.id);
    // Stored as the visitor's, sent from the messenger, with the page it came from.
    const stored = await s.db.conversationPart.findUniqueOrThrow({ where: { id: BigInt(first.part.id) } });
    expect(stored).toMatchObject({
      fromUserId: BigInt(v.boot.visitor.id),
      sentVia: "web_user",
      referrer: "http://127.0.0.1:9/pricing",
    });
    const second = await start(v, "Another question");
    const reply = ok<VisitorPart>(
      await v.api.postJson(`${BASE}/${first.conversation.id}/reply`, { body: "More", random_id: 5 }),
    );
    expect(reply).toMatchObject({ type: "reply_user", body: "More", random_id: 5 });
    // The reply moved the first conversation to the top.
    const list = ok<VisitorConversation[]>(await v.api.get(BASE));
    expect(list.map((c) => c.id)).toEqual([first.conversation.id, second.conversation.id]);
    expect(list[0]!.last_part?.body).toBe("More");
    // v2 cursor pagination: one per page, then the next from the position given.
    const r1 = await v.api.get(BASE, { paginate_count: "1" });
    expect(ok<VisitorConversation[]>(r1).map((c) => c.id)).toEqual([first.conversation.id]);
    const pos = r1.body.meta.next_before_position as unknown[];
    expect(pos).toHaveLength(2);
    const r2 = await v.api.get(BASE, { paginate_count: "1", paginate_position: JSON.stringify(pos) });
    expect(ok<VisitorConversation[]>(r2).map((c) => c.id)).toEqual([second.conversation.id]);
    expect(r2.body.meta.next_before_position).toBeNull();
    // The operators' API sees the same conversation and messages.
    const seen = ok<{ user: { id: number } }>(
      await a.api.get(`/api/v2/conversations/${first.conversation.id}`),
    );
    expect(String(seen.user.id)).toBe(String(v.boot.visitor.id));
  });

  it("shows the visitor the team's replies but never notes, assignments or internal fields", async ({
    server: s,
    app: a,
  }) => {
    const v = await bootTestVisitor(s, a);
    const { conversation } = await start(v, "Where is my order?");
    await operator(a, conversation.id, { body: "Customer is a VIP, be quick", type: "note" });
    await operator(a, conversation.id, { body: "Looking into it", auto_assign: String(a.admin.id) });
    await operator(a, conversation.id, { body: "Our shipping guide", type: "article" });
    const page = await partsOf(v, conversation.id);
    expect(page.items.map((p) => [p.type, p.body])).toEqual([
      ["article", "Our shipping guide"],
      ["reply_admin", "Looking into it"],
      ["reply_user", "Where is my order?"],
    ]);
    const text = JSON.stringify(page.items);
    expect(text).not.toContain("VIP");
    expect(text).not.toContain(a.admin.email);
    expect(text).not.toMatch(/sent_via|external_id|referrer|meta_data|part_group|direction/);
    expect(page.items[1]!.from).toEqual({
      kind: "admin",
      id: Number(a.admin.id),
      name: a.admin.name,
      avatar: a.admin.avatar,
    });
    // Paged by part ID: the oldest message alone after the first two.
    const p1 = await partsOf(v, conversation.id, { paginate_count: "2" });
    const p2 = await partsOf(v, conversation.id, {
      paginate_count: "2",
      paginate_position: JSON.stringify(p1.meta.next_before_position),
    });
    expect(p2.items.map((p) => p.body)).toEqual(["Where is my order?"]);
    // The summary: assigned, two unread team messages, the newest visible part (not the note).
    const [summary] = ok<VisitorConversation[]>(await v.api.get(BASE));
    expect(summary).toMatchObject({
      unread: 2,
      assignee: { id: Number(a.admin.id), name: a.admin.name },
      last_part: { body: "Our shipping guide" },
    });
    expect(JSON.stringify(summary)).not.toContain(a.admin.email);
    // Reading marks the team's replies read: the unread counts drop to zero.
    expect(ok(await v.api.postJson(`${BASE}/${conversation.id}/read`))).toEqual({});
    const after = await partsOf(v, conversation.id);
    expect(after.items.filter((p) => p.type !== "reply_user").every((p) => p.read)).toBe(true);
    expect(ok<VisitorConversation[]>(await v.api.get(BASE))[0]!.unread).toBe(0);
    expect(ok<{ unread: number }>(await v.api.get("/api/v2/messenger/me")).unread).toBe(0);
  });

  it("turns a quick-reply click into the visitor's reply with the button's body and meta_data", async ({
    server: s,
    app: a,
  }) => {
    const v = await bootTestVisitor(s, a);
    const { conversation } = await start(v, "Help");
    const buttons = [
      { type: "quick_reply", body: "Track my order", meta_data: { intent: "track" } },
      { type: "quick_reply", body: "Talk to a human" },
    ];
    const offer = await operator(a, conversation.id, {
      body: "How can we help?",
      actions: JSON.stringify(buttons),
    });
    const [shown] = (await partsOf(v, conversation.id)).items;
    expect(shown!.actions).toEqual([
      { type: "button", body: "Track my order", meta_data: { intent: "track" } },
      { type: "button", body: "Talk to a human" },
    ]);
    expect(shown!.chosen_action).toBeNull();
    const click = ok<VisitorPart>(
      await v.api.postJson(`${BASE}/${conversation.id}/quickreply`, { part: offer.id, action: 0 }),
    );
    expect(click).toMatchObject({ type: "reply_user", body: "Track my order", from: { kind: "user" } });
    const stored = await s.db.conversationPart.findUniqueOrThrow({ where: { id: BigInt(click.id) } });
    expect(stored.metaData).toEqual({ intent: "track" });
    const offered = (await partsOf(v, conversation.id)).items.find((p) => p.id === offer.id);
    expect(offered!.chosen_action).toBe(0);
    // Only a part of this conversation the visitor sees: another conversation's is unknown here.
    const elsewhere = await start(v, "Other topic");
    errorOf(
      await v.api.postJson(`${BASE}/${elsewhere.conversation.id}/quickreply`, { part: offer.id, action: 0 }),
      400,
      "LookupError",
    );
    errorOf(
      await v.api.postJson(`${BASE}/${conversation.id}/quickreply`, { part: offer.id, action: 5 }),
      400,
      "ValidationError",
    );
  });

  it("uploads an attachment (multipart) whose link works without a token", async ({ server: s, app: a }) => {
    const v = await bootTestVisitor(s, a);
    const fd = new FormData();
    fd.set("attachment", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "screen.png");
    const started = ok<Started>(await v.api.postMultipart(BASE, fd));
    expect(started.part.attachments).toEqual([
      expect.objectContaining({ name: "screen.png", type: "image/png", size: PNG.length, image: true }),
    ]);
    const fd2 = new FormData();
    fd2.set("body", "and the log");
    fd2.set("attachment", new Blob([new Uint8Array(PNG)]), "second.png");
    const reply = ok<VisitorPart>(await v.api.postMultipart(`${BASE}/${started.conversation.id}/reply`, fd2));
    expect(reply.body).toBe("and the log");
    const res = await fetch(reply.attachments[0]!.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    // A file that is not what its name says, and a message with nothing in it, are refused.
    const bad = new FormData();
    bad.set("attachment", new Blob([Buffer.from("just text")]), "fake.png");
    errorOf(await v.api.postMultipart(BASE, bad), 400, "ValidationError");
    errorOf(await v.api.postJson(BASE, { body: "  " }), 400, "ValidationError");
  });

  it("tells operators the visitor is typing, and dedupes repeats by Idempotency-Key", async ({
    server: s,
    app: a,
  }) => {
    const v = await bootTestVisitor(s, a);
    const { conversation } = await start(v);
    expect(ok(await v.api.postJson(`${BASE}/${conversation.id}/typing`, { body: "I wa" }))).toEqual({});
    const send = () =>
      s.call(`${BASE}/${conversation.id}/reply`, {
        method: "POST",
        headers: { Authorization: `Bearer ${v.boot.access_token}`, "Idempotency-Key": "k-1" },
        json: { body: "once" },
      });
    const one = ok<VisitorPart>(await send());
    const two = ok<VisitorPart>(await send());
    expect(two.id).toBe(one.id);
    expect(
      await s.db.conversationPart.count({ where: { conversationId: BigInt(conversation.id), body: "once" } }),
    ).toBe(1);
  });
});
