import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeToken, makeUser, unique } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";

interface Ev {
  id: number;
  created: number;
  type: { id: number; name: string; score: number; visible: boolean };
  user: number;
  props: Record<string, unknown>;
}

const track = (a: TestApp, id: bigint | string, body: Record<string, unknown>, v = "") =>
  a.api.postJson(`/api${v}/users/${id}/events`, body);

describe("POST /users/{id}/events", () => {
  it("records an event, making its type on first use, and keeps the summary exact", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id);
    const name = unique("Viewed pricing");
    const first = ok<Ev>(
      await track(a, u.id, {
        event: name,
        params: { plan: "pro", seats: 3, tags: ["x"] },
        created: 1_700_000_500,
      }),
    );
    expect(first).toMatchObject({
      created: 1_700_000_500,
      user: Number(u.id),
      type: { name, score: 0, visible: true },
      props: { plan: "pro", seats: 3, tags: ["x"] },
    });
    const older = ok<Ev>(await track(a, u.id, { event: name, created: 1_700_000_000 }));
    const now = ok<Ev>(await track(a, u.id, { event: name }));
    expect(older.type.id).toBe(first.type.id);
    expect(now.created).toBeGreaterThan(1_700_000_500);
    expect(await s.db.eventType.count({ where: { appId: a.app.id, name } })).toBe(1);
    const user = ok(await a.api.get(`/api/users/${u.id}`, { props_events: true, events: true }));
    expect(user.props_events).toEqual({
      [`$event_${first.type.id}_first`]: "2023-11-14T22:13:20",
      [`$event_${first.type.id}_last`]: expect.stringMatching(/^20\d\d-/) as unknown,
      [`$event_${first.type.id}_count`]: 3,
    });
    expect(user.events).toEqual([
      {
        first: 1_700_000_000,
        last: now.created,
        count: 3,
        event_type: { id: first.type.id, name, score: 0 },
      },
    ]);
    const log = await s.db.eventLogEntry.findMany({ where: { channel: `event.${a.app.id}`, userId: u.id } });
    expect(log).toHaveLength(3);
  });

  it("creates the user with by_user_id", async ({ server: s, app: a }) => {
    const key = unique("ext");
    const ev = ok<Ev>(await track(a, key, { by_user_id: true, event: "Opened app" }));
    const user = await s.db.user.findUniqueOrThrow({
      where: { appId_userId: { appId: a.app.id, userId: key } },
    });
    expect(ev.user).toBe(Number(user.id));
    expect(user.isLead).toBe(true);
  });

  it("serves v1 with the user-write scope", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id);
    const ev = ok<Ev>(await track(a, u.id, { event: "v1 event", params: { a: 1 } }, "/v1"));
    expect(ev).toMatchObject({ user: Number(u.id), type: { name: "v1 event" }, props: { a: 1 } });
    const narrow = await makeToken(s.db, a.app.id, ["user-read"]);
    errorOf(
      await client(s, narrow).postJson(`/api/v1/users/${u.id}/events`, { event: "x" }),
      403,
      "PermissionDenied",
    );
  });

  it("refuses bad events clearly", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id);
    const fields = async (body: Record<string, unknown>) =>
      errorOf(await track(a, u.id, body), 400, "ValidationError").error_fields;
    expect(await fields({})).toEqual({ event: "is required" });
    expect(await fields({ event: "" })).toEqual({ event: "must be at least 1 characters" });
    expect(await fields({ event: "x".repeat(256) })).toEqual({ event: "must be at most 255 characters" });
    expect(await fields({ event: "a", params: "[1]" })).toHaveProperty("params");
    expect(await fields({ event: "a", params: { nested: { a: 1 } } })).toHaveProperty(
      ["params", "nested"].join("."),
    );
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, i]));
    expect(await fields({ event: "a", params: many })).toEqual({ params: "at most 50 properties" });
    expect(await fields({ event: "a", created: -5 })).toHaveProperty("created");
    expect(await fields({ event: "a", created: "soon" })).toHaveProperty("created");
    errorOf(await track(a, 123_456_789n, { event: "a" }), 400, "LookupError");
    const b = await makeApp(s.db);
    errorOf(
      await client(s, b.token).postJson(`/api/users/${u.id}/events`, { event: "a" }),
      403,
      "PermissionDenied",
    );
  });
});

describe("GET /users/{id}/events", () => {
  let u: { id: bigint; userId: string | null };
  const ids: number[] = [];
  it.beforeAll(async ({ server: s, app: a }) => {
    u = await makeUser(s.db, a.app.id);
    for (let i = 0; i < 5; i++)
      ids.push(ok<Ev>(await track(a, u.id, { event: i % 2 ? "Odd" : "Even", params: { i } })).id);
  });

  it("lists newest first, pages by id (v2), and filters by name", async ({ app: a }) => {
    const p1 = await a.api.get(`/api/users/${u.id}/events`, { paginate_count: 2 });
    expect(ok<Ev[]>(p1).map((e) => e.id)).toEqual([ids[4], ids[3]]);
    expect(p1.body.meta.next_before_position).toEqual([ids[3]]);
    const p2 = await a.api.get(`/api/users/${u.id}/events`, {
      paginate_count: 2,
      paginate_position: p1.body.meta.next_before_position,
    });
    expect(ok<Ev[]>(p2).map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const after = await a.api.get(`/api/users/${u.id}/events`, {
      paginate_direction: "after",
      paginate_position: [ids[2]],
      paginate_page_order: "asc",
    });
    expect(ok<Ev[]>(after).map((e) => e.id)).toEqual([ids[3], ids[4]]);
    const odd = ok<Ev[]>(await a.api.get(`/api/users/${u.id}/events`, { filter_name: "Odd" }));
    expect(odd.map((e) => e.id)).toEqual([ids[3], ids[1]]);
    expect(odd[0]!.props).toEqual({ i: 3 });
    expect(ok<Ev[]>(await a.api.get(`/api/users/${u.id}/events`, { filter_name: "Never happened" }))).toEqual(
      [],
    );
  });

  it("refuses a filter_name over 255 characters or empty, in both versions", async ({
    server: s,
    app: a,
  }) => {
    for (const v of ["", "/v1"]) {
      for (const filter_name of ["E".repeat(256), ""]) {
        const fields = errorOf(
          await a.api.get(`/api${v}/users/${u.id}/events`, { filter_name }),
          400,
          "ValidationError",
        ).error_fields;
        expect(Object.keys(fields ?? {})).toEqual(["filter_name"]);
      }
      expect(
        ok<Ev[]>(await a.api.get(`/api${v}/users/${u.id}/events`, { filter_name: "E".repeat(255) })),
      ).toEqual([]);
    }
    // A refused read with by_user_id creates no user.
    const fresh = unique("ext");
    errorOf(
      await a.api.get(`/api/users/${fresh}/events`, { by_user_id: true, filter_name: "E".repeat(256) }),
      400,
      "ValidationError",
    );
    expect(await s.db.user.count({ where: { appId: a.app.id, userId: fresh } })).toBe(0);
  });

  it("pages with after/count in v1 and creates the user with by_user_id", async ({ server: s, app: a }) => {
    const p1 = await a.api.get(`/api/v1/users/${u.id}/events`, { count: 3 });
    expect(ok<Ev[]>(p1).map((e) => e.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(p1.body.meta.next_after).toBe(ids[2]);
    const p2 = await a.api.get(`/api/v1/users/${u.id}/events`, {
      count: 3,
      after: p1.body.meta.next_after,
    });
    expect(ok<Ev[]>(p2).map((e) => e.id)).toEqual([ids[1], ids[0]]);
    expect(p2.body.meta.next_after).toBeNull();
    const fresh = unique("ext");
    expect(ok(await a.api.get(`/api/v1/users/${fresh}/events`, { by_user_id: true }))).toEqual([]);
    expect(await s.db.user.count({ where: { appId: a.app.id, userId: fresh } })).toBe(1);
  });

  it("refuses bad paging and needs user-read in v1", async ({ server: s, app: a }) => {
    expect(
      errorOf(await a.api.get(`/api/users/${u.id}/events`, { paginate_count: 51 }), 400, "ValidationError")
        .error_fields,
    ).toHaveProperty("paginate_count");
    expect(
      errorOf(await a.api.get(`/api/v1/users/${u.id}/events`, { after: "x" }), 400, "ValidationError")
        .error_fields,
    ).toHaveProperty("after");
    expect(
      errorOf(await a.api.get(`/api/v1/users/${u.id}/events`, { count: 0 }), 400, "ValidationError")
        .error_fields,
    ).toHaveProperty("count");
    const v2Bad: [Record<string, unknown>, string][] = [
      [{ paginate_count: 0 }, "paginate_count"],
      [{ paginate_count: "many" }, "paginate_count"],
      [{ paginate_direction: "sideways" }, "paginate_direction"],
      [{ paginate_direction: "around" }, "paginate_position"],
      [{ paginate_page_order: "up" }, "paginate_page_order"],
      [{ paginate_position: "nope" }, "paginate_position"],
      [{ paginate_position: ["x"] }, "paginate_position"],
      [{ paginate_position: [-1] }, "paginate_position"],
      [{ paginate_position: [1.5] }, "paginate_position"],
      [{ paginate_position: ["99999999999999999999"] }, "paginate_position"],
      [{ paginate_position: [1, 2] }, "paginate_position"],
      [{ paginate_position: [] }, "paginate_position"],
    ];
    for (const [q, field] of v2Bad) {
      const fields = errorOf(
        await a.api.get(`/api/users/${u.id}/events`, q),
        400,
        "ValidationError",
      ).error_fields;
      expect(Object.keys(fields ?? {}), JSON.stringify(q)).toContain(field);
    }
    const v1Bad: [Record<string, unknown>, string][] = [
      [{ count: 51 }, "count"],
      [{ count: -1 }, "count"],
      [{ after: -5 }, "after"],
      [{ after: "1_2" }, "after"],
      [{ after: "99999999999999999999" }, "after"],
      [{ page_order: "up" }, "page_order"],
    ];
    for (const [q, field] of v1Bad) {
      const fields = errorOf(
        await a.api.get(`/api/v1/users/${u.id}/events`, q),
        400,
        "ValidationError",
      ).error_fields;
      expect(Object.keys(fields ?? {}), JSON.stringify(q)).toContain(field);
    }
    const narrow = await makeToken(s.db, a.app.id, ["user-write"]);
    errorOf(await client(s, narrow).get(`/api/v1/users/${u.id}/events`), 403, "PermissionDenied");
    errorOf(
      await a.api.get(`/api/users/${u.id}/events`, {}).then(() => a.api.get(`/api/users/77777777/events`)),
      400,
      "LookupError",
    );
  });
});
