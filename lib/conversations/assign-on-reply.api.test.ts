import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";
import { makeTestApp, type TestOperator } from "../testing/server-test";
import { makeAdmin } from "../testing/factories";
import { conversationRow, eventsOf, lastEventId, ok, startConversation } from "./testing";

/** A new app, an operator of it logged in, and an unassigned visitor conversation. */
async function setUp(s: TestServer, operator: (adminId: bigint) => Promise<TestOperator>) {
  const a = await makeTestApp(s);
  const op = await makeAdmin(s.db, { appId: a.app.id });
  const panel = await operator(op.id);
  const conv = await startConversation(a.api, s.db, a.app.id);
  return { a, op, panel, conv };
}

const counts = async (c: TestOperator, appId: bigint) =>
  ok(await c.get(`/api/apps/${appId}/conversations/counts`));

describe("assign on reply", () => {
  it("assigns an unassigned conversation to the operator who replies, in the reply's transaction", async ({
    server: s,
    operator,
  }) => {
    const { a, op, panel, conv } = await setUp(s, operator);
    expect(await counts(panel, a.app.id)).toMatchObject({ unassigned: 1, mine: 0 });
    const log = await lastEventId(s.db);
    const reply = ok(await panel.postForm(`/api/conversations/${conv.id}/reply`, { body: "On it" }));
    expect(reply).toMatchObject({
      type: "reply_admin",
      assign_part: { type: "assigned", from: { id: Number(op.id) }, assignee: { id: Number(op.id) } },
    });
    expect((await conversationRow(s.db, conv.id)).assigneeId).toBe(op.id);
    // One group: the assignment first, then the reply, as with auto_assign.
    const parts = await s.db.conversationPart.findMany({
      where: { conversationId: conv.id, type: { in: ["assigned", "reply_admin"] } },
      orderBy: { id: "asc" },
    });
    expect(parts.map((p) => p.type)).toEqual(["assigned", "reply_admin"]);
    expect(parts[0]!.partGroup).toBe(parts[1]!.partGroup);
    // Sockets and webhooks read the log: the assignment's row is there.
    const events = await eventsOf(s.db, `conversation_assigned.${a.app.id}`, log);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      conversation: Number(conv.id),
      assignee: { id: Number(op.id) },
    });
    expect(await counts(panel, a.app.id)).toMatchObject({ unassigned: 0, mine: 1 });
    // No notification to oneself.
    expect(await s.db.notification.count({ where: { adminId: op.id, kind: "assigned" } })).toBe(0);

    // The next reply changes nothing: it is assigned now.
    const again = ok(await panel.postForm(`/api/conversations/${conv.id}/reply`, { body: "Done" }));
    expect(again.assign_part).toBeUndefined();
  });

  it("leaves it alone for a note, a token's reply and someone else's conversation", async ({
    server: s,
    operator,
  }) => {
    const { a, op, panel, conv } = await setUp(s, operator);
    const note = ok(
      await panel.postForm(`/api/conversations/${conv.id}/reply`, { body: "Looking", type: "note" }),
    );
    expect(note.assign_part).toBeUndefined();
    ok(await a.api.postForm(`/api/conversations/${conv.id}/reply`, { body: "From the integration" }));
    expect((await conversationRow(s.db, conv.id)).assigneeId).toBeNull();

    const colleague = await makeAdmin(s.db, { appId: a.app.id });
    ok(
      await a.api.postForm(`/api/conversations/${conv.id}/assign`, {
        admin: String(colleague.id),
      }),
    );
    ok(await panel.postForm(`/api/conversations/${conv.id}/reply`, { body: "Helping out" }));
    expect((await conversationRow(s.db, conv.id)).assigneeId).toBe(colleague.id);
    expect(await s.db.conversationPart.count({ where: { conversationId: conv.id, type: "assigned" } })).toBe(
      1,
    );
    expect(op.id).not.toBe(colleague.id);
  });

  it("does nothing when the app turns it off", async ({ server: s, operator }) => {
    const { a, panel, conv } = await setUp(s, operator);
    expect(
      ok(await a.api.postJson(`/api/apps/${a.app.id}/routing`, { assign_on_reply: false })).assign_on_reply,
    ).toBe(false);
    const reply = ok(await panel.postForm(`/api/conversations/${conv.id}/reply`, { body: "Hi" }));
    expect(reply.assign_part).toBeUndefined();
    expect((await conversationRow(s.db, conv.id)).assigneeId).toBeNull();
    expect(await counts(panel, a.app.id)).toMatchObject({ unassigned: 1, mine: 0 });
  });
});
