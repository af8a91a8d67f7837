import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, unique } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";

/** The app's segments. */
const base = (a: TestApp) => `/api/apps/${a.app.id}/segments`;

interface Seg {
  id: number;
  app: number;
  name: string;
  filters: { type: string; filters: { property_name: string; type: string; value: { value?: unknown } }[] };
  created: number;
}

const f = (property_name: string, type: string, value: unknown = {}) => ({
  type: "and",
  filters: [{ property_name, type, value }],
});

const inSeg = (value: unknown) => f("$segment", "in_segment", { value });
const create = async (a: TestApp, name: string, filters: unknown) =>
  ok<Seg>(await a.api.postJson(base(a), { name, filters }));

describe("segments", () => {
  it("creates, lists, reads, updates and deletes", async ({ server: s, app: a }) => {
    const seg = await create(a, "Emails", f("$email", "known"));
    expect(seg).toMatchObject({ app: Number(a.app.id), name: "Emails", filters: f("$email", "known") });
    expect(ok<Seg[]>(await a.api.get(base(a))).map((x) => x.id)).toContain(seg.id);
    expect(ok<Seg>(await a.api.get(`${base(a)}/${seg.id}`)).name).toBe("Emails");
    const renamed = ok<Seg>(await a.api.postJson(`${base(a)}/${seg.id}`, { name: "Known emails" }));
    expect(renamed).toMatchObject({ name: "Known emails", filters: f("$email", "known") });
    const put = await s.call(`${base(a)}/${seg.id}`, {
      method: "PUT",
      headers: { Authorization: `Token ${a.token}` },
      json: { filters: f("$phone", "known") },
    });
    expect(ok<Seg>(put).filters).toEqual(f("$phone", "known"));
    ok(await a.api.del(`${base(a)}/${seg.id}`));
    errorOf(await a.api.get(`${base(a)}/${seg.id}`), 400, "LookupError");
  });

  it("answers concurrent deletes and updates of one segment with one success and LookupErrors", async ({
    app: a,
  }) => {
    const seg = await create(a, unique("Racing"), f("$email", "known"));
    const url = `${base(a)}/${seg.id}`;
    const all = await Promise.all([
      ...Array.from({ length: 4 }, () => a.api.del(url)),
      ...Array.from({ length: 4 }, (_, i) => a.api.postJson(url, { name: unique(`Renamed ${i}`) })),
    ]);
    const deletes = all.slice(0, 4);
    expect(deletes.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of all.filter((x) => x.status !== 200)) errorOf(r, 400, "LookupError");
    errorOf(await a.api.get(url), 400, "LookupError");
  });

  it("stores references by name as IDs, so renaming never breaks them", async ({ app: a }) => {
    const inner = await create(a, unique("Inner"), f("$email", "known"));
    const outer = await create(a, unique("Outer"), inSeg(inner.name));
    expect(outer.filters.filters[0]!.value).toEqual({ value: inner.id });
    ok(await a.api.postJson(`${base(a)}/${inner.id}`, { name: unique("Renamed") }));
    ok(await a.api.get(`/api/apps/${a.app.id}/users`, { filters: inSeg(outer.id) }));
    const used = errorOf(await a.api.del(`${base(a)}/${inner.id}`), 400, "ValidationError");
    expect(used.error_fields?.segment_id).toMatch(new RegExp(`used by segment\\(s\\) ${outer.id}`));
  });

  it("refuses a segment that contains itself, directly or through others, and deep nesting", async ({
    app: a,
  }) => {
    const x = await create(a, unique("X"), f("$email", "known"));
    const y = await create(a, unique("Y"), inSeg(x.id));
    const self = errorOf(
      await a.api.postJson(`${base(a)}/${x.id}`, { filters: inSeg(x.id) }),
      400,
      "ValidationError",
    );
    expect(self.error_fields).toEqual({
      "filters.filters.0.value": `segment ${x.id} contains itself through $segment`,
    });
    const cycle = errorOf(
      await a.api.postJson(`${base(a)}/${x.id}`, { filters: inSeg(y.id) }),
      400,
      "ValidationError",
    );
    expect(Object.values(cycle.error_fields ?? {})[0]).toMatch(/contains itself/);
    const z = await create(a, unique("Z"), inSeg(y.id));
    const w = await create(a, unique("W"), inSeg(z.id));
    const deep = errorOf(
      await a.api.postJson(base(a), { name: unique("V"), filters: inSeg(w.id) }),
      400,
      "ValidationError",
    );
    expect(Object.values(deep.error_fields ?? {})[0]).toMatch(/nest at most 3 levels/);
  });

  it("refuses bad input clearly", async ({ server: s, app: a }) => {
    const bad = async (body: Record<string, unknown>) =>
      errorOf(await a.api.postJson(base(a), body), 400, "ValidationError").error_fields;
    expect(await bad({ filters: f("$email", "known") })).toEqual({ name: "is required" });
    expect(await bad({ name: "", filters: f("$email", "known") })).toHaveProperty("name");
    expect(await bad({ name: "x".repeat(256), filters: f("$email", "known") })).toHaveProperty("name");
    expect(await bad({ name: "No filters" })).toEqual({ filters: "is required" });
    expect(await bad({ name: "Bad", filters: f("$email", "gt", { value: 1 }) })).toHaveProperty([
      "filters.filters.0.type",
    ]);
    expect(await bad({ name: "Missing", filters: inSeg(987_654) })).toEqual({
      "filters.filters.0.value": "no segment 987654 in this app",
    });
    await create(a, "Taken", f("$email", "known"));
    expect(await bad({ name: "Taken", filters: f("$email", "known") })).toHaveProperty("name");
    errorOf(await a.api.get(`${base(a)}/123456789`), 400, "LookupError");
    const other = await makeApp(s.db);
    errorOf(await client(s, other.token).get(base(a)), 403, "PermissionDenied");
    errorOf(
      await client(s, other.token).postJson(base(a), { name: "x", filters: f("$email", "known") }),
      403,
      "PermissionDenied",
    );
  });

  it("serves v1 with users-list to read and user-write to change", async ({ app: a, scoped }) => {
    const reader = await scoped(["users-list"]);
    ok(await reader.get(`/api/v1/apps/${a.app.id}/segments`));
    errorOf(
      await reader.postJson(`/api/v1/apps/${a.app.id}/segments`, {
        name: "v1",
        filters: f("$email", "known"),
      }),
      403,
      "PermissionDenied",
    );
    const seg = ok<Seg>(
      await a.api.postJson(`/api/v1/apps/${a.app.id}/segments`, {
        name: unique("v1"),
        filters: f("$email", "known"),
      }),
    );
    ok(await a.api.del(`/api/v1/apps/${a.app.id}/segments/${seg.id}`));
  });
});
