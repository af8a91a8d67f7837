import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";
import { client } from "../testing/http";
import { makeApp } from "../testing/factories";
import { ok } from "../users/testing";
import { fails, routedApp, startConversation } from "./testing";

const balanced = { routing: "balanced" };

async function loads(s: TestServer, appId: bigint): Promise<Map<string, number>> {
  const rows = await s.db.conversation.groupBy({
    by: ["assigneeId"],
    where: { appId, closed: false },
    _count: true,
  });
  return new Map(rows.map((r) => [String(r.assigneeId), r._count]));
}

describe("balanced routing of new visitor conversations (fewest open first)", () => {
  it("is off by default, and set through the app's routing", async ({ server: s }) => {
    const a = await makeApp(s.db);
    const api = client(s, a.token);
    expect(ok(await api.get(`/api/apps/${a.app.id}/routing`))).toEqual({
      routing: "off",
      routing_cap: null,
      assign_on_reply: true,
      channel_operators: {},
    });
    const c = await startConversation(api, s.db, a.app.id);
    expect((await s.db.conversation.findUniqueOrThrow({ where: { id: c.id } })).assigneeId).toBeNull();
    expect(
      ok(await api.postJson(`/api/apps/${a.app.id}/routing`, { routing: "balanced", routing_cap: 3 })),
    ).toEqual({ routing: "balanced", routing_cap: 3, assign_on_reply: true, channel_operators: {} });
    expect(
      ok(await api.postForm(`/api/apps/${a.app.id}/routing`, { routing_cap: "0", assign_on_reply: "false" })),
    ).toEqual({ routing: "balanced", routing_cap: null, assign_on_reply: false, channel_operators: {} });
    // An old client's "round_robin" is kept as such: strict turns now (routing-turns.api.test.ts).
    expect(ok(await api.postJson(`/api/apps/${a.app.id}/routing`, { routing: "round_robin" }))).toMatchObject(
      {
        routing: "round_robin",
        assign_on_reply: false,
      },
    );
    fails(await api.postJson(`/api/apps/${a.app.id}/routing`, { routing: "fewest" }), 400, "ValidationError");
  });

  it("spreads 6 starts over 3 Available operators 2-2-2, skipping the Away", async ({ server: s }) => {
    const a = await routedApp(s, 3, balanced);
    for (let k = 0; k < 6; k++) await startConversation(a.api, s.db, a.app.id);
    const l = await loads(s, a.app.id);
    expect(a.ops.map((o) => l.get(String(o.id)))).toEqual([2, 2, 2]);
    expect(l.get(String(a.admin.id))).toBeUndefined();
    // The one set Away gets no more.
    await s.db.appAdmin.update({
      where: { appId_adminId: { appId: a.app.id, adminId: a.ops[0]!.id } },
      data: { availability: "away" },
    });
    for (let k = 0; k < 2; k++) await startConversation(a.api, s.db, a.app.id);
    const after = await loads(s, a.app.id);
    expect(a.ops.map((o) => after.get(String(o.id)))).toEqual([2, 3, 3]);
  });

  it("skips operators at the cap, and leaves it unassigned when all are", async ({ server: s }) => {
    const a = await routedApp(s, 2, { ...balanced, routing_cap: 1 });
    for (let k = 0; k < 3; k++) await startConversation(a.api, s.db, a.app.id);
    const l = await loads(s, a.app.id);
    expect(a.ops.map((o) => l.get(String(o.id)))).toEqual([1, 1]);
    expect(l.get("null")).toBe(1);
    // Closing one frees its operator.
    const theirs = await s.db.conversation.findFirstOrThrow({ where: { assigneeId: a.ops[0]!.id } });
    await s.db.conversation.update({ where: { id: theirs.id }, data: { closed: true } });
    await startConversation(a.api, s.db, a.app.id);
    expect((await loads(s, a.app.id)).get(String(a.ops[0]!.id))).toBe(1);
  });

  it("never exceeds the cap under concurrent starts", async ({ server: s }) => {
    const a = await routedApp(s, 3, { ...balanced, routing_cap: 2 });
    await Promise.all(Array.from({ length: 9 }, () => startConversation(a.api, s.db, a.app.id)));
    const l = await loads(s, a.app.id);
    expect(a.ops.map((o) => l.get(String(o.id)))).toEqual([2, 2, 2]);
    expect(l.get("null")).toBe(3);
  });
});
