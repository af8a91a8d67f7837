import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";
import { makeAdmin, makeApp, makeUser } from "../testing/factories";
import { client, type Client } from "../testing/http";
import { errorOf, ok } from "../users/testing";

let s: TestServer;

it.beforeAll(({ server }) => {
  s = server;
});

/** An app routing round robin among `n` operators besides its default admin (set Away), with a second channel. */
async function routedApp(n: number, routing: Record<string, unknown> = {}) {
  const a = await makeApp(s.db);
  const api = client(s, a.token);
  await s.db.appAdmin.update({
    where: { appId_adminId: { appId: a.app.id, adminId: a.admin.id } },
    data: { availability: "away" },
  });
  const ops = [];
  for (let k = 0; k < n; k++) ops.push(await makeAdmin(s.db, { appId: a.app.id }));
  const second = await s.db.channel.create({ data: { appId: a.app.id, name: `Second ${a.app.id}` } });
  ok(await api.postJson(routingPath(a.app.id), { routing: "round_robin", ...routing }));
  return { ...a, api, ops, second };
}

const routingPath = (appId: bigint) => `/api/apps/${appId}/routing`;

/** A new visitor's first message, in `channel` when given. */
async function start(api: Client, appId: bigint, channel?: bigint): Promise<bigint> {
  const user = await makeUser(s.db, appId);
  const body = { body: "Hello", ...(channel === undefined ? {} : { channel: String(channel) }) };
  const d = ok(await api.postForm(`/api/users/${user.id}/startconversation`, body));
  return BigInt(d.id as number);
}

async function assignees(ids: bigint[]): Promise<(string | null)[]> {
  const rows = await s.db.conversation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
  return rows.map((r) => (r.assigneeId === null ? null : String(r.assigneeId)));
}

describe("per-channel routing", () => {
  it("routes a channel's conversations among its operators only, the others among all", async () => {
    const a = await routedApp(3);
    const [x, y, z] = a.ops.map((o) => o.id);
    const set = ok(
      await a.api.postJson(routingPath(a.app.id), {
        channel_operators: JSON.stringify({ [String(a.second.id)]: [String(y), String(z)] }),
      }),
    );
    expect(set).toEqual({
      routing: "round_robin",
      routing_cap: null,
      channel_operators: { [String(a.second.id)]: [Number(y), Number(z)] },
    });
    const inSecond = [];
    for (let k = 0; k < 4; k++) inSecond.push(await start(a.api, a.app.id, a.second.id));
    const got = await assignees(inSecond);
    expect(got.filter((g) => g === String(y))).toHaveLength(2);
    expect(got.filter((g) => g === String(z))).toHaveLength(2);
    // Elsewhere all three are candidates: x, with nothing open, is next.
    expect(await assignees([await start(a.api, a.app.id, a.channel.id)])).toEqual([String(x)]);
    expect(await assignees([await start(a.api, a.app.id)])).toEqual([String(x)]);
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
    expect(await assignees([await start(a.api, a.app.id, a.second.id)])).toEqual([String(x)]);
    // Seven starts one after another: slow on a loaded machine.
  }, 120_000);

  it("leaves the channel's conversations unassigned when its operators are Away, not routing to others", async () => {
    const a = await routedApp(2);
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
    expect(await assignees([await start(a.api, a.app.id, a.second.id)])).toEqual([null]);
    expect(await assignees([await start(a.api, a.app.id)])).toEqual([String(x)]);
  });

  it("refuses another app's channel and operators who are not members, and drops those who leave", async () => {
    const a = await routedApp(1);
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
