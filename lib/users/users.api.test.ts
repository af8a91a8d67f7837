import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeToken, makeUser, unique } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "./testing";

let userId: bigint;
let userKey: string;

it.beforeAll(async ({ server: s, app: a }) => {
  userKey = unique("cus");
  const u = await makeUser(s.db, a.app.id, { userId: userKey, name: "Ann Lee", email: "ann@example.test" });
  userId = u.id;
  ok(
    await a.api.postJson(`/api/users/${userId}/props`, {
      operations: [
        { op: "update_or_create", key: "plan", value: "pro" },
        { op: "update_or_create", key: "seats", value: 12 },
        { op: "update_or_create", key: "$sessions", value: 4 },
        { op: "update_or_create", key: "$last_seen", value: "2024-05-01T10:00:00" },
      ],
    }),
  );
  ok(await a.api.postJson(`/api/users/${userId}/events`, { event: "Signed up", created: 1_700_000_000 }));
  ok(await a.api.postJson(`/api/users/${userId}/events`, { event: "Signed up", created: 1_700_000_100 }));
  ok(await a.api.postJson(`/api/users/${userId}/notes`, { body: "Called, wants a demo" }));
  ok(await a.api.postJson(`/api/users/${userId}/tags`, { tag: "vip" }));
  ok(
    await a.api.postJson(`/api/users/${userId}/setpresence`, {
      presence: "idle",
      page_url: "https://x.test/p",
      timezone_offset: 120,
    }),
  );
  ok(
    await a.api.postJson(`/api/apps/${a.app.id}/segments`, {
      name: "Pro",
      filters: { type: "and", filters: [{ property_name: "plan", type: "str_eq", value: { value: "PRO" } }] },
    }),
  );
  ok(
    await a.api.postJson(`/api/apps/${a.app.id}/segments`, {
      name: "Free",
      filters: {
        type: "and",
        filters: [{ property_name: "plan", type: "str_eq", value: { value: "free" } }],
      },
    }),
  );
});

const get = (a: TestApp, params: Record<string, unknown> = {}, id: string | bigint = userId) =>
  a.api.get(`/api/users/${id}`, params);

describe("GET /users/{id}", () => {
  it("returns the basic user by default: id, app, user_id, presence, props", async ({ app: a }) => {
    const u = ok(await get(a));
    expect(Object.keys(u).sort()).toEqual(["app", "id", "presence", "props", "user_id"]);
    expect(u).toMatchObject({
      id: Number(userId),
      app: Number(a.app.id),
      user_id: userKey,
      presence: "idle",
    });
    expect(u.props).toMatchObject({
      $name: "Ann Lee",
      $email: "ann@example.test",
      $sessions: 5,
      $user_id: userKey,
    });
    expect(typeof (u.props as Record<string, unknown>).$last_seen).toBe("string");
    expect((u.props as Record<string, string>).$last_seen).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it("switches every optional part on and props off", async ({ server: s, app: a }) => {
    const u = ok(
      await get(a, {
        props: false,
        props_events: true,
        props_custom: true,
        presence_details: true,
        events: true,
        segments: true,
        notes: true,
        tags: true,
        email_status: true,
        timezone_offset: true,
        props_sources: true,
      }),
    );
    expect(u.props).toBeUndefined();
    const type = (await s.db.eventType.findFirstOrThrow({ where: { appId: a.app.id, name: "Signed up" } }))
      .id;
    expect(u.props_events).toEqual({
      [`$event_${type}_first`]: "2023-11-14T22:13:20",
      [`$event_${type}_last`]: "2023-11-14T22:15:00",
      [`$event_${type}_count`]: 2,
    });
    expect(u.props_custom).toEqual({ plan: "pro", seats: 12 });
    expect(u.presence_details).toMatchObject({
      presence: "idle",
      page_url: "https://x.test/p",
      page_title: null,
    });
    expect(u.events).toEqual([
      {
        first: 1_700_000_000,
        last: 1_700_000_100,
        count: 2,
        event_type: { id: Number(type), name: "Signed up", score: 0 },
      },
    ]);
    expect((u.segments as { name: string }[]).map((x) => x.name)).toEqual(["Pro"]);
    expect(u.segments).toEqual([
      expect.objectContaining({ app: Number(a.app.id), filters: expect.any(Object) as unknown }),
    ]);
    expect(u.notes).toEqual([
      expect.objectContaining({
        body: "Called, wants a demo",
        admin: expect.objectContaining({ id: Number(a.admin.id), type: "admin" }) as unknown,
      }),
    ]);
    expect(u.tags).toEqual(["vip"]);
    expect(u.email_status).toBe("subscribed");
    expect(u.timezone_offset).toBe(120);
    expect(u.props_sources).toEqual({});
  });

  it("returns props as strings with convert_props_types=false", async ({ app: a }) => {
    const u = ok(await get(a, { props_custom: true, convert_props_types: false }));
    expect(u.props).toMatchObject({ $sessions: "5" });
    expect(u.props_custom).toEqual({ plan: "pro", seats: "12" });
  });

  it("finds the user by the caller's user ID, and returns IDs as strings with id_as_string", async ({
    app: a,
  }) => {
    const u = ok(await get(a, { by_user_id: true, id_as_string: true }, userKey));
    expect(u.id).toBe(String(userId));
    expect(u.app).toBe(String(a.app.id));
  });

  it("refuses unknown users, bad IDs, bad switches and other apps' users", async ({ server: s, app: a }) => {
    expect(errorOf(await get(a, {}, 999_999_999n), 400, "LookupError").error_message).toMatch(/999999999/);
    expect(errorOf(await get(a, { by_user_id: true }, "nobody"), 400, "LookupError").error_message).toMatch(
      /nobody/,
    );
    expect(errorOf(await get(a, {}, "abc"), 400, "ValidationError").error_fields).toHaveProperty("id");
    expect(
      errorOf(await get(a, { by_user_id: true, app: "x" }, userKey), 400, "ValidationError").error_fields,
    ).toHaveProperty("app");
    const b = await makeApp(s.db);
    errorOf(await client(s, b.token).get(`/api/users/${userId}`), 403, "PermissionDenied");
    errorOf(
      await client(s, b.token).get(`/api/users/${userKey}`, { by_user_id: true, app: a.app.id }),
      403,
      "PermissionDenied",
    );
  });
});

describe("GET /v1/users/{id}", () => {
  it("serves the v1 switches and ignores the later ones", async ({ app: a }) => {
    const u = ok(
      await a.api.get(`/api/v1/users/${userId}`, {
        props_custom: true,
        events: true,
        notes: true,
        tags: true,
        email_status: true,
      }),
    );
    expect(u).toHaveProperty("props_custom");
    expect(u).toHaveProperty("events");
    expect(u).toHaveProperty("notes");
    expect(u).not.toHaveProperty("tags");
    expect(u).not.toHaveProperty("email_status");
    const byKey = ok(await a.api.get(`/api/v1/users/${userKey}`, { by_user_id: true }));
    expect(byKey.id).toBe(Number(userId));
  });

  it("needs the user-read scope in every version", async ({ server: s, app: a, scoped }) => {
    const narrow = await makeToken(s.db, a.app.id, ["users-list"]);
    errorOf(await client(s, narrow).get(`/api/v1/users/${userId}`), 403, "PermissionDenied");
    errorOf(await client(s, narrow).get(`/api/users/${userId}`), 403, "PermissionDenied");
    ok(await (await scoped(["user-read"])).get(`/api/users/${userId}`));
  });
});
