import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeToken } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import { listLeads, one, seedLeads } from "./testing";
import { Prisma } from "../db/generated/client";
import { wherePage } from "./list-leads";

let ids: Record<string, bigint>;
let bought: number;

it.beforeAll(async ({ server: s, app: a }) => {
  ({ ids, bought } = await seedLeads(s.db, a));
});

const leads = (a: TestApp, filters?: unknown, extra: Record<string, unknown> = {}, v = "") =>
  listLeads(a, ids, filters, extra, v);
const sorted = async (a: TestApp, filters: unknown) => (await leads(a, filters)).names.sort();

describe("GET /apps/{id}/users sorting and paging", () => {
  it("sorts by system, custom and event props, unknown values last", async ({ app: a }) => {
    expect((await leads(a, undefined, {})).names).toEqual(["ann", "bob", "pushy", "cid"]);
    expect((await leads(a, undefined, { sort_prop: "$sessions", sort_order: "asc" })).names).toEqual([
      "cid",
      "pushy",
      "bob",
      "ann",
    ]);
    expect((await leads(a, undefined, { sort_prop: "seats" })).names).toEqual(["ann", "bob", "pushy", "cid"]);
    expect((await leads(a, undefined, { sort_prop: "plan", sort_order: "asc" })).names).toEqual([
      "bob",
      "ann",
      "cid",
      "pushy",
    ]);
    expect(
      (await leads(a, undefined, { sort_prop: `$event_${bought}_count`, sort_order: "asc" })).names,
    ).toEqual(["bob", "ann", "cid", "pushy"]);
  });

  it("pages by offset and limit with the same total", async ({ app: a }) => {
    const page = await leads(a, undefined, { sort_prop: "$sessions", offset: 1, limit: 2 });
    expect(page.total).toBe(4);
    expect(page.names).toEqual(["bob", "pushy"]);
    const beyond = await leads(a, undefined, { offset: 100 });
    expect(beyond).toMatchObject({ total: 4, names: [] });
    // A filter answered by the one WHERE: the page within its matches, and past them.
    const mailed = one("$email", "str_contains", { value: ".test" });
    expect(await leads(a, mailed, { offset: 0, limit: 1 })).toMatchObject({ total: 2, names: ["ann"] });
    expect(await leads(a, mailed, { offset: 1 })).toMatchObject({ total: 2, names: ["bob"] });
    expect(await leads(a, mailed, { offset: 2 })).toMatchObject({ total: 2, names: [] });
  });

  it("never runs the one WHERE's page when it starts past the counted total", async ({
    server: s,
    app: a,
  }) => {
    // Each row the page would read divides by zero: the statement fails if the page runs at all.
    const where = Prisma.sql`u.app_id = ${a.app.id} AND 1 / (u.id - u.id) = 1`;
    const run = (total: number, offset: number) => {
      const q = wherePage({
        counted: Prisma.sql`SELECT ${total}::int AS total`,
        where,
        sort: Prisma.sql`u.last_seen`,
        dir: Prisma.raw("DESC"),
        limit: 20,
        offset,
      });
      return s.db.$queryRaw<{ total: number; id: bigint | null }[]>(
        // The shape of listLeads' statement: the page's IDs joined to their rows, beside the total.
        Prisma.sql`${q.with} SELECT c.total, p.id FROM (${q.counted}) c
          LEFT JOIN LATERAL (SELECT u.id FROM users u JOIN (${q.ids}) k ON k.id = u.id) p ON TRUE`,
      );
    };
    expect(await run(4, 4)).toEqual([{ total: 4, id: null }]);
    expect(await run(4, 9_980)).toEqual([{ total: 4, id: null }]);
    await expect(run(5, 4)).rejects.toThrow(/division by zero/);
  });

  it("returns props as strings with convert_props_types=false", async ({ app: a }) => {
    const r = await leads(a, one("$sessions", "eq", { value: 10 }), { convert_props_types: false });
    expect(r.users[0]!.props.$sessions).toBe("10");
  });

  it("is fresh: a change shows at once", async ({ app: a }) => {
    expect((await leads(a, one("$name", "str_eq", { value: "Gus" }))).total).toBe(0);
    ok(
      await a.api.postJson(`/api/users/${ids.ghost}/props`, {
        operations: [{ op: "update_or_create", key: "$name", value: "Gus" }],
      }),
    );
    expect((await leads(a, one("$name", "str_eq", { value: "Gus" }))).names).toEqual(["ghost"]);
    ok(
      await a.api.postJson(`/api/users/${ids.ghost}/props`, {
        operations: [{ op: "delete", key: "$name" }],
      }),
    );
    expect((await leads(a)).total).toBe(4);
  });

  it("refuses bad parameters clearly", async ({ server: s, app: a }) => {
    const bad = async (q: Record<string, unknown>, v = "") =>
      errorOf(await a.api.get(`/api/${v}apps/${a.app.id}/users`, q), 400, "ValidationError");
    expect((await bad({ offset: 9_990, limit: 20 })).error_fields).toEqual({
      offset: "offset + limit must be at most 10000",
    });
    expect((await bad({ offset: 9_990, limit: 20 })).error_message).toMatch(/10000 leads are reachable/);
    expect((await bad({ offset: 10_001 })).error_fields).toHaveProperty("offset");
    expect((await bad({ offset: -1 })).error_fields).toHaveProperty("offset");
    expect((await bad({ limit: 0 })).error_fields).toHaveProperty("limit");
    expect((await bad({ limit: 51 })).error_fields).toHaveProperty("limit");
    expect((await bad({ sort_order: "up" })).error_fields).toHaveProperty("sort_order");
    expect((await bad({ sort_prop: "$segment" })).error_fields).toHaveProperty("sort_prop");
    expect((await bad({ sort_prop: "$bogus" })).error_fields).toHaveProperty("sort_prop");
    expect((await bad({ filters: "{nope" })).error_fields).toEqual({ filters: "must be valid JSON" });
    expect((await bad({ filters: one("$sessions", "str_eq", { value: 1 }) })).error_fields).toHaveProperty([
      "filters.filters.0.type",
    ]);
    errorOf(
      await client(s, (await makeApp(s.db)).token).get(`/api/apps/${a.app.id}/users`),
      403,
      "PermissionDenied",
    );
  });

  it("refuses date-times outside the years 1 to 9999, on system, custom and event props", async ({
    app: a,
  }) => {
    const bad = async (filters: unknown) =>
      errorOf(await a.api.get(`/api/apps/${a.app.id}/users`, { filters }), 400, "ValidationError")
        .error_fields;
    for (const when of [
      "0000-01-01T00:00:00",
      "0000-12-31T23:59:59Z",
      "0001-01-01T00:00:00+01:00",
      -99_999_999_999,
    ])
      for (const [prop, type] of [
        ["$last_seen", "date_gt"],
        ["signup", "date_lt"],
        ["$event_1_first", "date_gt"],
      ] as const)
        expect(await bad(one(prop, type, { value: when }))).toHaveProperty(["filters.filters.0.value.value"]);
    expect(
      await bad(one("$last_seen", "date_range", { value1: "2024-01-01", value2: "0000-06-01" })),
    ).toHaveProperty(["filters.filters.0.value.value2"]);
    expect(await bad(one("$last_seen", "daysmore", { value: 1e9 }))).toHaveProperty([
      "filters.filters.0.value.value",
    ]);
    expect(
      (await leads(a, one("$last_seen", "date_gt", { value: "0001-01-01T00:00:00" }))).names.sort(),
    ).toEqual(await sorted(a, one("$last_seen", "known")));
  });
});

describe("GET /v1/apps/{id}/users", () => {
  it("uses the v1 lead rule (no web push) and allows limit 0", async ({ app: a }) => {
    const v1 = await leads(a, undefined, {}, "v1/");
    expect(v1.names.sort()).toEqual(["ann", "bob", "cid"]);
    expect(await leads(a, undefined, { limit: 0 }, "v1/")).toMatchObject({ total: 3, names: [] });
    expect((await leads(a, one("$phone", "known"), {}, "v1/")).names).toEqual(["bob"]);
  });

  it("refuses bad parameters with error_fields", async ({ app: a }) => {
    const bad = async (q: Record<string, unknown>) =>
      errorOf(await a.api.get(`/api/v1/apps/${a.app.id}/users`, q), 400, "ValidationError");
    const over = await bad({ offset: 9_990, limit: 11 });
    expect(over.error_fields).toEqual({ offset: "offset + limit must be at most 10000" });
    expect(over.error_message).toMatch(/10000 leads are reachable/);
    // The default limit (20) counts too.
    expect((await bad({ offset: 9_981 })).error_fields).toEqual({
      offset: "offset + limit must be at most 10000",
    });
    expect((await bad({ offset: 10_001, limit: 0 })).error_fields).toHaveProperty("offset");
    expect((await bad({ limit: 51 })).error_fields).toEqual({ limit: "must be at most 50" });
    expect((await bad({ limit: -1 })).error_fields).toHaveProperty("limit");
    expect((await bad({ limit: "ten" })).error_fields).toHaveProperty("limit");
    expect((await bad({ offset: "1.5" })).error_fields).toHaveProperty("offset");
    expect((await bad({ filters: "{nope" })).error_fields).toEqual({ filters: "must be valid JSON" });
    expect((await bad({ filters: "42" })).error_fields).toHaveProperty("filters");
    expect((await bad({ filters: one("$sessions", "regex", { value: "x" }) })).error_fields).toHaveProperty(
      "filters.filters.0.type",
    );
    expect((await bad({ filters: one("$sessions", "str_eq", { value: 1 }) })).error_fields).toHaveProperty(
      "filters.filters.0.type",
    );
    expect((await bad({ filters: one("$bogus", "known") })).error_fields).toHaveProperty(
      "filters.filters.0.property_name",
    );
    expect((await bad({ filters: one("$sessions", "gt", { value: "many" }) })).error_fields).toHaveProperty(
      "filters.filters.0.value.value",
    );
    expect((await bad({ sort_order: "up" })).error_fields).toHaveProperty("sort_order");
    expect((await bad({ sort_prop: "$bogus" })).error_fields).toHaveProperty("sort_prop");
    // At the edge itself the page is served.
    expect(await leads(a, undefined, { offset: 9_990, limit: 10 }, "v1/")).toMatchObject({
      total: 3,
      names: [],
    });
    expect(await leads(a, undefined, { offset: 9_980 }, "v1/")).toMatchObject({ total: 3, names: [] });
  });

  it("needs the users-list scope", async ({ server: s, app: a }) => {
    const narrow = await makeToken(s.db, a.app.id, ["user-read"]);
    errorOf(await client(s, narrow).get(`/api/v1/apps/${a.app.id}/users`), 403, "PermissionDenied");
  });
});
