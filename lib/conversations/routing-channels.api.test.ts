import { afterAll, describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { serverTest } from "../testing/server-test";
import { makeAdmin, makeApp, makeUser } from "../testing/factories";
import type { Client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import { startReceiver, type Receiver } from "../webhooks/testing";
import { eventsOf, routedApp } from "./testing";

// Loopback webhooks: the receiver below is where the assignment's webhook must arrive.
const it = serverTest({ webhookAllowPrivate: true });
let rcv: Receiver;

it.beforeAll(async () => {
  rcv = await startReceiver();
});

afterAll(async () => {
  await rcv?.close();
});

const routingPath = (appId: bigint) => `/api/apps/${appId}/routing`;

/** A new visitor's first message, in `channel` when given. */
async function start(s: TestServer, api: Client, appId: bigint, channel?: bigint): Promise<bigint> {
  const user = await makeUser(s.db, appId);
  const body = { body: "Hello", ...(channel === undefined ? {} : { channel: String(channel) }) };
  const d = ok(await api.postForm(`/api/users/${user.id}/startconversation`, body));
  return BigInt(d.id as number);
}

async function assignees(s: TestServer, ids: bigint[]): Promise<(string | null)[]> {
  const rows = await s.db.conversation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
  return rows.map((r) => (r.assigneeId === null ? null : String(r.assigneeId)));
}

describe("per-channel routing", () => {
  it("routes a channel's conversations among its operators only, the others among all", async ({
    server: s,
  }) => {
    // Balanced: "x, with nothing open, is next" twice below.
    const a = await routedApp(s, 3, { routing: "balanced" });
    const [x, y, z] = a.ops.map((o) => o.id);
    const set = ok(
      await a.api.postJson(routingPath(a.app.id), {
        channel_operators: JSON.stringify({ [String(a.second.id)]: [String(y), String(z)] }),
      }),
    );
    expect(set).toEqual({
      routing: "balanced",
      routing_cap: null,
      assign_on_reply: true,
      channel_operators: { [String(a.second.id)]: [Number(y), Number(z)] },
    });
    const inSecond = [];
    for (let k = 0; k < 4; k++) inSecond.push(await start(s, a.api, a.app.id, a.second.id));
    const got = await assignees(s, inSecond);
    expect(got.filter((g) => g === String(y))).toHaveLength(2);
    expect(got.filter((g) => g === String(z))).toHaveLength(2);
    // Elsewhere all three are candidates: x, with nothing open, is next.
    expect(await assignees(s, [await start(s, a.api, a.app.id, a.channel.id)])).toEqual([String(x)]);
    expect(await assignees(s, [await start(s, a.api, a.app.id)])).toEqual([String(x)]);
    // An empty list puts the channel back on all the app's operators.
    const cleared = ok(
      await a.api.postJson(routingPath(a.app.id), {
        channel_operators: JSON.stringify({ [String(a.second.id)]: [] }),
      }),
    );
    expect(cleared.channel_operators).toEqual({});
    await s.db.appAdmin.updateMany({
      where: { appId: a.app.id, adminId: { in: [y!, z!] } },
      data: { availability: "away" },
    });
    expect(await assignees(s, [await start(s, a.api, a.app.id, a.second.id)])).toEqual([String(x)]);
    // Seven starts one after another: slow on a loaded machine.
  }, 120_000);

  it("leaves the channel's conversations unassigned when its operators are Away, not routing to others", async ({
    server: s,
  }) => {
    const a = await routedApp(s, 2);
    const [x, y] = a.ops.map((o) => o.id);
    ok(
      await a.api.postJson(routingPath(a.app.id), {
        channel_operators: JSON.stringify({ [String(a.second.id)]: [String(y)] }),
      }),
    );
    await s.db.appAdmin.update({
      where: { appId_adminId: { appId: a.app.id, adminId: y! } },
      data: { availability: "away" },
    });
    expect(await assignees(s, [await start(s, a.api, a.app.id, a.second.id)])).toEqual([null]);
    expect(await assignees(s, [await start(s, a.api, a.app.id)])).toEqual([String(x)]);
  });

  it("refuses another app's channel and operators who are not members, and drops those who leave", async ({
    server: s,
  }) => {
    const a = await routedApp(s, 1);
    const b = await makeApp(s.db);
    const outsider = await makeAdmin(s.db);
    const set = (o: Record<string, string[]>) =>
      a.api.postJson(routingPath(a.app.id), { channel_operators: JSON.stringify(o) });
    errorOf(await set({ [String(b.channel.id)]: [] }), 400, "LookupError");
    errorOf(await set({ [String(a.second.id)]: [String(outsider.id)] }), 400, "LookupError");
    errorOf(await set({ [String(a.second.id)]: [String(b.admin.id)] }), 400, "LookupError");
    errorOf(await set({ nope: [] }), 400, "ValidationError");
    errorOf(await set({ "99999999999999999999": [] }), 400, "ValidationError");
    // Nothing of a refused change is kept.
    expect(ok(await a.api.get(routingPath(a.app.id))).channel_operators).toEqual({});
    ok(await set({ [String(a.second.id)]: [String(a.ops[0]!.id), String(a.admin.id)] }));
    await s.db.appAdmin.delete({ where: { appId_adminId: { appId: a.app.id, adminId: a.admin.id } } });
    expect(ok(await a.api.get(routingPath(a.app.id))).channel_operators).toEqual({
      [String(a.second.id)]: [Number(a.ops[0]!.id)],
    });
  });
});

describe("a routed conversation's assignment", () => {
  it("is an automatic `assigned` part with the events, webhook and notification of a manual one", async ({
    server: s,
  }) => {
    const a = await routedApp(s, 1);
    const op = a.ops[0]!.id;
    const hook = ok<{ id: number }>(
      await a.api.postJson(`/api/v2/apps/${a.app.id}/webhooks`, {
        url: rcv.url,
        events: ["conversation.assigned"],
      }),
    );
    const log = await s.db.eventLogEntry.aggregate({ _max: { id: true } });
    const id = await start(s, a.api, a.app.id);

    const parts = ok<Record<string, unknown>[]>(await a.api.get(`/api/conversations/${id}/parts`));
    expect(parts.map((p) => p.type).sort()).toEqual(["assigned", "reply_user"]);
    const assigned = parts.find((p) => p.type === "assigned")!;
    // No operator made it: `from` is null (the panel says "Automation"), as for every automatic change.
    expect(assigned).toMatchObject({ from: null, assignee: { id: Number(op), type: "admin" } });
    const message = parts.find((p) => p.type === "reply_user")!;
    expect(assigned.part_group).toBe(message.part_group);
    expect(ok(await a.api.get(`/api/conversations/${id}`))).toMatchObject({
      assignee: { id: Number(op) },
      parts_count: 2,
    });

    // The real-time channel of assignments carries it, as for POST /conversations/{id}/assign.
    const events = await eventsOf(s.db, `conversation_assigned.${a.app.id}`, log._max.id ?? 0n);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      conversation: Number(id),
      assignee: { id: Number(op) },
      part: { id: assigned.id, type: "assigned", from: null },
    });

    const [got] = await rcv.waitFor(
      1,
      (r) => r.json.type === "conversation.assigned" && r.json.app === Number(a.app.id),
    );
    expect(got!.json.data).toMatchObject({ conversation: Number(id), assignee: { id: Number(op) } });
    expect(hook.id).toBeGreaterThan(0);

    // One notification tells the operator of both the assignment and the message.
    const notes = await s.db.notification.findMany({ where: { adminId: op, conversationId: id } });
    expect(notes.map((n) => [n.kind, n.actorId])).toEqual([["assigned", null]]);
  });

  it("holds the cap when a channel's conversations start at once, each with one assigned part", async ({
    server: s,
  }) => {
    const a = await routedApp(s, 3, { routing_cap: 2 });
    const [x, y, z] = a.ops.map((o) => o.id);
    ok(
      await a.api.postJson(routingPath(a.app.id), {
        channel_operators: JSON.stringify({ [String(a.second.id)]: [String(x), String(y)] }),
      }),
    );
    const log = await s.db.eventLogEntry.aggregate({ _max: { id: true } });
    const ids = await Promise.all(Array.from({ length: 6 }, () => start(s, a.api, a.app.id, a.second.id)));
    const got = await assignees(s, ids);
    expect(got.filter((g) => g === String(x))).toHaveLength(2);
    expect(got.filter((g) => g === String(y))).toHaveLength(2);
    expect(got.filter((g) => g === null)).toHaveLength(2);
    expect(got).not.toContain(String(z));
    const parts = await s.db.conversationPart.groupBy({
      by: ["conversationId"],
      where: { conversationId: { in: ids }, type: "assigned" },
      _count: true,
    });
    expect(parts.map((p) => p._count)).toEqual([1, 1, 1, 1]);
    const events = await eventsOf(s.db, `conversation_assigned.${a.app.id}`, log._max.id ?? 0n);
    expect(events).toHaveLength(4);
  });
});
