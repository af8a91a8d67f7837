import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { client } from "../testing/http";
import { makeApp, makeUser } from "../testing/factories";
import { sweepPresence } from "./presence";
import { errorOf, ok } from "./testing";

const beat = (a: TestApp, id: bigint | string, body: Record<string, unknown> = {}, v = "") =>
  a.api.postJson(`/api${v}/users/${id}/setpresence`, body);
const ago = (ms: number) => new Date(Date.now() - ms);
const presenceLog = (s: TestServer, a: TestApp) =>
  s.db.eventLogEntry.findMany({
    where: { channel: `user_presence_changed.${a.app.id}` },
    orderBy: { id: "asc" },
  });

describe("POST /users/{id}/setpresence", () => {
  it("sets online or idle with the page, counts sessions, marks the user seen and announces changes", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id);
    const before = (await presenceLog(s, a)).length;
    const r = ok(await beat(a, u.id, { page_url: "https://shop.test/cart", page_title: "Cart" }));
    expect(r).toEqual({ id: Number(u.id), app: Number(a.app.id), presence: "online" });
    ok(await beat(a, u.id, { page_url: "https://shop.test/cart" }));
    const user = ok(await a.api.get(`/api/users/${u.id}`, { presence_details: true }));
    expect(user.presence).toBe("online");
    expect(user.presence_details).toEqual({
      presence: "online",
      page_url: "https://shop.test/cart",
      page_title: null,
      last_heartbeat: expect.any(Number) as unknown,
    });
    expect(user.props).toMatchObject({ $sessions: 1, $last_seen: expect.any(String) as unknown });
    ok(await beat(a, u.id, { presence: "idle" }));
    expect(ok(await a.api.get(`/api/users/${u.id}`)).presence).toBe("idle");
    const log = (await presenceLog(s, a)).slice(before);
    expect(log.map((l) => (l.payload as { presence: string }).presence)).toEqual(["online", "idle"]);
    // A heartbeat after a long gap starts a new session.
    await s.db.user.update({ where: { id: u.id }, data: { lastHeartbeat: ago(31 * 60_000) } });
    ok(await beat(a, u.id));
    expect((await s.db.user.findUniqueOrThrow({ where: { id: u.id } })).sessions).toBe(2);
  });

  it("reads offline two minutes after the last heartbeat, and the sweeper announces it", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id);
    ok(await beat(a, u.id));
    await s.db.user.update({ where: { id: u.id }, data: { lastHeartbeat: ago(2 * 60_000 + 5_000) } });
    expect(ok(await a.api.get(`/api/users/${u.id}`)).presence).toBe("offline");
    const active = ok<{ id: number }[]>(await a.api.get(`/api/apps/${a.app.id}/activeusers`));
    expect(active.map((x) => x.id)).not.toContain(Number(u.id));
    expect(await sweepPresence(s.db, a.app.id)).toBeGreaterThanOrEqual(1);
    expect((await s.db.user.findUniqueOrThrow({ where: { id: u.id } })).presence).toBe("offline");
    const last = (await presenceLog(s, a)).at(-1)!;
    expect(last.payload).toMatchObject({ id: Number(u.id), presence: "offline" });
  });

  it("keeps the time zone offset and answers v1 with empty data", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id);
    expect(ok(await beat(a, u.id, { timezone_offset: -300 }, "/v1"))).toEqual({});
    expect(ok(await a.api.get(`/api/users/${u.id}`, { timezone_offset: true })).timezone_offset).toBe(-300);
  });

  it("refuses bad heartbeats clearly", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id);
    expect(
      errorOf(await beat(a, u.id, { presence: "offline" }), 400, "ValidationError").error_fields,
    ).toHaveProperty("presence");
    expect(
      errorOf(await beat(a, u.id, { timezone_offset: 5000 }), 400, "ValidationError").error_fields,
    ).toHaveProperty("timezone_offset");
    expect(
      errorOf(await beat(a, u.id, { page_url: "x".repeat(2049) }), 400, "ValidationError").error_fields,
    ).toHaveProperty("page_url");
    errorOf(await beat(a, 424_242_424n), 400, "LookupError");
    errorOf(await beat(a, "nobody", { by_user_id: true }), 400, "LookupError");
  });
});

describe("GET /apps/{id}/activeusers", () => {
  it("lists online and idle users with presence details, newest heartbeat first", async ({
    server: s,
    app: a,
    scoped,
  }) => {
    const b = await makeApp(s.db);
    const apiB = client(s, b.token);
    const u1 = await makeUser(s.db, b.app.id, { name: "One" });
    const u2 = await makeUser(s.db, b.app.id);
    const u3 = await makeUser(s.db, b.app.id);
    ok(await apiB.postJson(`/api/users/${u1.id}/setpresence`, { presence: "idle", page_url: "/a" }));
    ok(await apiB.postJson(`/api/users/${u2.id}/setpresence`, { page_url: "/b" }));
    const r = await apiB.get(`/api/apps/${b.app.id}/activeusers`);
    const list = ok<
      {
        id: number;
        presence: string;
        presence_details: { page_url: string };
        props: Record<string, unknown>;
      }[]
    >(r);
    expect(list.map((x) => [x.id, x.presence, x.presence_details.page_url])).toEqual([
      [Number(u2.id), "online", "/b"],
      [Number(u1.id), "idle", "/a"],
    ]);
    expect(list[1]!.props.$name).toBe("One");
    expect(r.body.meta.total).toBe(2);
    expect(ok<unknown[]>(await apiB.get(`/api/apps/${b.app.id}/activeusers`, { limit: 1 }))).toHaveLength(1);
    expect(list.map((x) => x.id)).not.toContain(Number(u3.id));
    errorOf(await apiB.get(`/api/apps/${b.app.id}/activeusers`, { limit: 0 }), 400, "ValidationError");
    errorOf(await a.api.get(`/api/apps/${b.app.id}/activeusers`), 403, "PermissionDenied");
    const narrow = await scoped(["user-read"], b);
    errorOf(await narrow.get(`/api/v1/apps/${b.app.id}/activeusers`), 403, "PermissionDenied");
    expect(ok<unknown[]>(await apiB.get(`/api/v1/apps/${b.app.id}/activeusers`))).toHaveLength(2);
  });
});

describe("email status, web push and the lead rule", () => {
  it("unsubscribes from email in both versions", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id);
    expect(ok(await a.api.postJson(`/api/users/${u.id}/unsubscribeemail`))).toEqual({
      id: Number(u.id),
      app: Number(a.app.id),
      email_status: "unsubscribed",
    });
    expect(ok(await a.api.get(`/api/users/${u.id}`, { email_status: true })).email_status).toBe(
      "unsubscribed",
    );
    expect(ok(await a.api.postJson(`/api/v1/users/${u.id}/unsubscribeemail`))).toEqual({});
    errorOf(await a.api.postJson(`/api/users/99999999/unsubscribeemail`), 400, "LookupError");
  });

  it("keeps is_lead (v2) and is_lead_v1 exact for every part of the rule", async ({ server: s, app: a }) => {
    const u = await s.db.user.create({ data: { appId: a.app.id } });
    const flags = async () => {
      const r = await s.db.user.findUniqueOrThrow({ where: { id: u.id } });
      return [r.isLead, r.isLeadV1];
    };
    const set = async (key: string, value: unknown) =>
      ok(
        await a.api.postJson(`/api/users/${u.id}/props`, {
          operations: [value === null ? { op: "delete", key } : { op: "update_or_create", key, value }],
        }),
      );
    expect(await flags()).toEqual([false, false]);
    for (const [key, value] of [
      ["$name", "Dee"],
      ["$email", "dee@x.test"],
      ["$phone", "+33 1"],
    ] as const) {
      await set(key, value);
      expect(await flags()).toEqual([true, true]);
      await set(key, null);
      expect(await flags()).toEqual([false, false]);
    }
    expect(ok(await a.api.postJson(`/api/users/${u.id}/webpush`, { subscribed: true }))).toEqual({
      id: Number(u.id),
      app: Number(a.app.id),
      webpush_subscribed: true,
    });
    expect(await flags()).toEqual([true, false]);
    // Each time the user became a lead (three props, then web push), the user.lead_created event was logged.
    const leadEvents = await s.db.eventLogEntry.findMany({ where: { type: "lead_created", userId: u.id } });
    expect(leadEvents).toHaveLength(4);
    expect(leadEvents[0]!.payload).toMatchObject({ id: Number(u.id), props: { $name: "Dee" } });
    const inList = async (v: string) =>
      ok<{ users: { id: number }[] }>(
        await a.api.get(`/api/${v}apps/${a.app.id}/users`, {
          filters: { type: "and", filters: [] },
          limit: 50,
        }),
      ).users.some((x) => x.id === Number(u.id));
    expect([await inList(""), await inList("v1/")]).toEqual([true, false]);
    expect(ok(await a.api.postJson(`/api/v1/users/${u.id}/webpush`, { subscribed: "false" }))).toEqual({});
    expect(await flags()).toEqual([false, false]);
    await s.db.user.update({ where: { id: u.id }, data: { conversationCount: 1 } });
    expect(await flags()).toEqual([true, true]);
    await s.db.user.update({ where: { id: u.id }, data: { conversationCount: 0, userId: "known-id" } });
    expect(await flags()).toEqual([true, true]);
    expect(
      errorOf(await a.api.postJson(`/api/users/${u.id}/webpush`), 400, "ValidationError").error_fields,
    ).toEqual({ subscribed: "is required" });
  });
});
