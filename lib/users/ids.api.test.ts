import { describe, expect } from "vitest";
import { catalog } from "../compose/catalog";
import { it } from "../testing/fixture";
import { makeUser } from "../testing/factories";
import { validParams, type CatalogObjects } from "../testing/catalog-objects";
import { errorOf, ok } from "./testing";

/**
 * A user ID beyond PostgreSQL's bigint (2^63) is a ValidationError before any query. It once reached the
 * database, where Prisma had merged it with other requests' lookups into one query: it failed them too.
 */
const TOO_BIG = "9223372036854775808";
let userB: bigint;

it.beforeAll(async ({ server: s, other: b }) => {
  userB = (await makeUser(s.db, b.app.id)).id;
});

describe("user IDs beyond int64", () => {
  const userPaths = catalog.filter((e) => e.spec.path.startsWith("/users/{id}"));

  it.for(userPaths.map((e) => [`${e.spec.method} ${e.spec.path}`, e] as const))(
    "%s: 2^63 and 2^64 are a ValidationError on id",
    async ([_n, e], { server: s, app: a }) => {
      const params = validParams(e.spec.method, e.spec.path, {} as CatalogObjects, a.admin.id);
      for (const big of [TOO_BIG, "18446744073709551616", "9999999999999999999"]) {
        const path = `/api${e.spec.path.replace("{id}", big).replace(/\{\w+\}/g, "1")}`;
        const r =
          e.spec.method === "GET" || e.spec.method === "DELETE"
            ? await s.call(`${path}?${new URLSearchParams(params as Record<string, string>).toString()}`, {
                method: e.spec.method,
                headers: { Authorization: `Token ${a.token}` },
              })
            : await s.call(path, {
                method: e.spec.method,
                headers: { Authorization: `Token ${a.token}` },
                json: params,
              });
        expect(errorOf(r, 400, "ValidationError").error_fields).toHaveProperty("id");
      }
    },
  );

  it("is a ValidationError as the app of a by_user_id reference too", async ({ app: a }) => {
    const r = await a.api.get(`/api/users/someone`, { by_user_id: true, app: TOO_BIG });
    expect(errorOf(r, 400, "ValidationError").error_fields).toHaveProperty("app");
  });

  it("is a plain user_id with by_user_id (a string, not an ID)", async ({ app: a }) => {
    const r = await a.api.get(`/api/users/${TOO_BIG}`, { by_user_id: true });
    errorOf(r, 400, "LookupError");
  });

  it("does not fail another app's concurrent lookups", async ({ app: a, other: b }) => {
    const calls: Promise<{ good: boolean; status: number; text: string }>[] = [];
    for (let i = 0; i < 50; i++) {
      calls.push(
        b.api.get(`/api/users/${userB}`).then((r) => ({ good: true, status: r.status, text: r.text })),
      );
      calls.push(
        a.api.get(`/api/users/${TOO_BIG}`).then((r) => ({ good: false, status: r.status, text: r.text })),
      );
    }
    const results = await Promise.all(calls);
    const goodFailed = results.filter((r) => r.good && r.status !== 200);
    expect(goodFailed.map((r) => r.text.slice(0, 200))).toEqual([]);
    expect(results.filter((r) => !r.good).map((r) => r.status)).toEqual(Array(50).fill(400));
    ok(await b.api.get(`/api/users/${userB}`));
  });
});
