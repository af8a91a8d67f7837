import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";
import { makeUser } from "../testing/factories";
import type { Client } from "../testing/http";
import { ok, routedApp, startConversation } from "./testing";

/** Each start's assignee, in the order the starts were made (null: left unassigned). */
async function route(s: TestServer, a: { api: Client; app: { id: bigint } }, n: number, channel?: bigint) {
  const got: (bigint | null)[] = [];
  for (let k = 0; k < n; k++) {
    const user = await makeUser(s.db, a.app.id);
    const d = ok(
      await a.api.postForm(`/api/users/${user.id}/startconversation`, {
        body: "Hello",
        ...(channel === undefined ? {} : { channel: String(channel) }),
      }),
    );
    const row = await s.db.conversation.findUniqueOrThrow({ where: { id: BigInt(d.id as number) } });
    got.push(row.assigneeId);
  }
  return got;
}

const setAvailability = (s: TestServer, appId: bigint, adminId: bigint, availability: string) =>
  s.db.appAdmin.update({ where: { appId_adminId: { appId, adminId } }, data: { availability } });

describe("round-robin routing: strict turns among Available operators", () => {
  it("takes turns A, B, A, B whatever each has open", async ({ server: s }) => {
    const a = await routedApp(s, 2);
    const [x, y] = a.ops.map((o) => o.id);
    expect(await route(s, a, 4)).toEqual([x, y, x, y]);
    // A now has none open and B two: balanced would give A two in a row, turns do not.
    await s.db.conversation.updateMany({ where: { appId: a.app.id, assigneeId: x }, data: { closed: true } });
    expect(await route(s, a, 2)).toEqual([x, y]);
  });

  it("passes over the Away, and a returning operator gets their turn, not a run of them", async ({
    server: s,
  }) => {
    const a = await routedApp(s, 3);
    const [x, y, z] = a.ops.map((o) => o.id);
    await setAvailability(s, a.app.id, y!, "away");
    expect(await route(s, a, 4)).toEqual([x, z, x, z]);
    await setAvailability(s, a.app.id, y!, "available");
    // The last turn was z's: x, then y, who is back, then z; y has nothing open yet is not given three.
    expect(await route(s, a, 4)).toEqual([x, y, z, x]);
  });

  it("respects the cap: an operator at it is passed over, and all at it leaves the conversation unassigned", async ({
    server: s,
  }) => {
    const a = await routedApp(s, 2, { routing_cap: 1 });
    const [x, y] = a.ops.map((o) => o.id);
    expect(await route(s, a, 3)).toEqual([x, y, null]);
    await s.db.conversation.updateMany({ where: { appId: a.app.id, assigneeId: y }, data: { closed: true } });
    // y got the last turn, x is next but at the cap: y again.
    expect(await route(s, a, 1)).toEqual([y]);
  });

  it("keeps a channel's turns among its operators apart from the app's", async ({ server: s }) => {
    const a = await routedApp(s, 3);
    const [x, y, z] = a.ops.map((o) => o.id);
    ok(
      await a.api.postJson(`/api/apps/${a.app.id}/routing`, {
        channel_operators: JSON.stringify({ [String(a.second.id)]: [String(y), String(z)] }),
      }),
    );
    const seen = [];
    for (let k = 0; k < 3; k++) {
      seen.push(...(await route(s, a, 1)), ...(await route(s, a, 1, a.second.id)));
    }
    // Interleaved, each list still goes round in its own order.
    expect(seen).toEqual([x, y, y, z, z, y]);
  });

  it("never gives the same turn twice to concurrent starts", async ({ server: s }) => {
    const a = await routedApp(s, 3);
    const ids = (
      await Promise.all(Array.from({ length: 9 }, () => startConversation(a.api, s.db, a.app.id)))
    ).map((c) => c.id);
    // Conversation IDs are drawn after the app's lock is taken, so their order is the order of the turns.
    const rows = await s.db.conversation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    const ops = a.ops.map((o) => o.id);
    expect(rows.map((r) => r.assigneeId)).toEqual([...ops, ...ops, ...ops]);
  });
});
