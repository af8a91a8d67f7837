import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeTestApp } from "../testing/server-test";
import { makeUser } from "../testing/factories";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, warmUpVisitorApi, type TestVisitor } from "../messenger/testing";
import { SESSION_START_EVENT } from "../user-model/presence-state";
import { consumed, dueNow, makeMessage, sendsOf, settled } from "./testing";

// Session start, time on page and time on site: the messenger's first heartbeat of a session is a user event, and
// a trigger's `stay` sends only to a visitor still on the page (or the site) when the timeout ends.
it.beforeAll(warmUpVisitorApi);

const PRICING = "https://shop.test/pricing";
const beat = async (v: TestVisitor, url: string) =>
  ok(await v.api.postJson("/api/v2/messenger/heartbeat", { url, title: "Shop" }));
const view = async (v: TestVisitor, url: string) =>
  ok(await v.api.postJson("/api/v2/messenger/track", { name: "$page_view", params: { url } }));

async function eventsOf(a: TestApp, userId: bigint | string | number) {
  return ok<{ type: { name: string }; props: Record<string, unknown> }[]>(
    await a.api.get(`/api/users/${userId}/events`),
  );
}

describe("messages: session start and staying", () => {
  it("a visitor's first heartbeat of a session records $session_start once, with its page; the REST presence none", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const m = await makeMessage(a, { trigger: { event: SESSION_START_EVENT } });
    const v = await bootTestVisitor(s, a);
    await beat(v, PRICING);
    await beat(v, `${PRICING}/pro`);
    const starts = (await eventsOf(a, v.boot.visitor.id)).filter((e) => e.type.name === SESSION_START_EVENT);
    expect(starts.map((e) => e.props)).toEqual([{ url: PRICING }]);
    const [send] = await settled(s, m.id, 1);
    expect(send).toMatchObject({ state: "sent", userId: BigInt(v.boot.visitor.id) });

    // A site's own presence call (the spec's setpresence) is not a visit.
    const u = await makeUser(s.db, a.app.id);
    ok(await a.api.postJson(`/api/users/${u.id}/setpresence`, { presence: "online" }));
    expect((await eventsOf(a, u.id)).map((e) => e.type.name)).not.toContain(SESSION_START_EVENT);
  });

  it("stay page: sent to the visitor still on the page, skipped for the one who moved on", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const m = await makeMessage(a, {
      trigger: { event: "$page_view", url: `${PRICING}*`, stay: "page" },
      timeout: 3600,
    });
    const stays = await bootTestVisitor(s, a);
    const leaves = await bootTestVisitor(s, a);
    for (const v of [stays, leaves]) {
      await beat(v, PRICING);
      await view(v, PRICING);
    }
    await beat(leaves, "https://shop.test/about");
    await consumed(s);
    await dueNow(s, m.id);
    const rows = await settled(s, m.id, 2);
    const byUser = new Map(rows.map((r) => [String(r.userId), [r.state, r.reason]]));
    expect(byUser.get(String(stays.boot.visitor.id))).toEqual(["sent", null]);
    expect(byUser.get(String(leaves.boot.visitor.id))).toEqual(["skipped", "left"]);
  });

  it("stay site: sent while the visitor's heartbeats go on, skipped once they stopped", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const m = await makeMessage(a, { trigger: { event: SESSION_START_EVENT, stay: "site" }, timeout: 3600 });
    const here = await bootTestVisitor(s, a);
    const gone = await bootTestVisitor(s, a);
    await beat(here, PRICING);
    await beat(gone, "https://shop.test/blog/post");
    await consumed(s);
    expect(await sendsOf(s, m.id)).toHaveLength(2);
    // The last heartbeat three minutes ago: past the presence TTL, offline.
    await s.db.user.update({
      where: { id: BigInt(gone.boot.visitor.id) },
      data: { lastHeartbeat: new Date(Date.now() - 3 * 60_000) },
    });
    await dueNow(s, m.id);
    const rows = await settled(s, m.id, 2);
    const byUser = new Map(rows.map((r) => [String(r.userId), r.reason ?? r.state]));
    expect(byUser.get(String(here.boot.visitor.id))).toBe("sent");
    expect(byUser.get(String(gone.boot.visitor.id))).toBe("left");
  });

  it("refuses staying on the page without a page view trigger, and an unknown stay", async ({ app: a }) => {
    const e1 = errorOf(
      await a.api.postJson(`/api/apps/${a.app.id}/messages`, {
        name: "Stay",
        kind: "chat",
        content: { sender: Number(a.admin.id), body: "Hi" },
        trigger: { event: SESSION_START_EVENT, stay: "page" },
      }),
      400,
      "ValidationError",
    );
    expect(JSON.stringify(e1)).toContain("trigger.stay");
    const e2 = errorOf(
      await a.api.postJson(`/api/apps/${a.app.id}/messages`, {
        name: "Stay",
        kind: "chat",
        content: { sender: Number(a.admin.id), body: "Hi" },
        trigger: { event: "$page_view", stay: "forever" },
      }),
      400,
      "ValidationError",
    );
    expect(JSON.stringify(e2)).toContain("stay");
  });
});
