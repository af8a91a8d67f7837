import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { eventsOf, fails, lastEventId, ok, startConversation, type Json } from "./testing";

describe("POST /conversations/{id}/quickreply", () => {
  it("turns a click into the visitor's reply with the button's body and meta_data", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const buttons = [
      { type: "quick_reply", body: "Track my order", meta_data: { intent: "track", order: 42 } },
      { type: "quick_reply", body: "Talk to a human" },
    ];
    const offer = ok(
      await a.api.postForm(`/api/conversations/${conv.id}/reply`, {
        body: "How can we help?",
        actions: JSON.stringify(buttons),
      }),
    );
    const since = await lastEventId(s.db);
    const click = ok(
      await a.api.postForm(`/api/conversations/${conv.id}/quickreply`, {
        part: String(offer.id),
        action: "0",
        random_id: "8",
      }),
    );
    expect(click).toMatchObject({
      type: "reply_user",
      body: "Track my order",
      meta_data: { intent: "track", order: 42 },
      from: Number(conv.userId),
      random_id: 8,
    });
    const [ev] = await eventsOf(s.db, `conversation_reply.${a.app.id}`, since);
    expect((ev!.payload as Json).meta_data).toEqual({ intent: "track", order: 42 });
    const second = ok(
      await a.api.postForm(`/api/conversations/${conv.id}/quickreply`, {
        part: String(offer.id),
        action: "1",
      }),
    );
    expect(second).toMatchObject({ body: "Talk to a human", meta_data: {} });
  });

  it("refuses clicks on missing buttons, other conversations' parts and other apps", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const other = await startConversation(a.api, s.db, a.app.id);
    const offer = ok(
      await a.api.postForm(`/api/conversations/${conv.id}/reply`, {
        body: "?",
        actions: JSON.stringify([{ type: "quick_reply", body: "Yes" }]),
      }),
    );
    const plain = ok(await a.api.postForm(`/api/conversations/${conv.id}/reply`, { body: "no buttons" }));
    const before = await s.db.conversationPart.count();
    const click = (id: bigint, form: Record<string, string>) =>
      a.api.postForm(`/api/conversations/${id}/quickreply`, form);
    fails(await click(conv.id, { part: String(offer.id), action: "1" }), 400, "ValidationError", "action");
    fails(await click(conv.id, { part: String(offer.id), action: "-1" }), 400, "ValidationError", "action");
    fails(await click(conv.id, { part: String(plain.id), action: "0" }), 400, "ValidationError", "action");
    fails(await click(other.id, { part: String(offer.id), action: "0" }), 400, "ValidationError", "part");
    fails(await click(conv.id, { action: "0" }), 400, "ValidationError", "part");
    fails(await click(conv.id, { part: "99999999", action: "0" }), 400, "LookupError");
    fails(
      await b.api.postForm(`/api/conversations/${conv.id}/quickreply`, {
        part: String(offer.id),
        action: "0",
      }),
      403,
      "PermissionDenied",
    );
    expect(await s.db.conversationPart.count()).toBe(before);
  });
});
