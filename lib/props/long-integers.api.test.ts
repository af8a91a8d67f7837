import { describe, expect } from "vitest";
import { Prisma } from "../db/generated/client";
import { it } from "../testing/fixture";
import { makeUser, unique } from "../testing/factories";
import type { TestServer } from "../testing/server";
import { errorOf, ok } from "../users/testing";

// Integers beyond 2^53 (a double's exact range) are stored, filtered and returned with all their digits.
const BIG = "9007199254740993"; // 2^53 + 1: JSON.parse reads 9007199254740992

/** A props request whose JSON body is written by hand: JSON.stringify cannot write a long integer. */
function postJsonText(s: TestServer, token: string, path: string, text: string) {
  return s.call(path, {
    method: "POST",
    headers: { Authorization: `Token ${token}`, "content-type": "application/json" },
    body: text,
  });
}

const ops = (...list: string[]) => `{"operations":[${list.join(",")}]}`;
const op = (o: string, key: string, value: string) => `{"op":"${o}","key":"${key}","value":${value}}`;

/** The custom props as stored, each value as PostgreSQL writes its JSON (exact) and its typed row's number. */
async function stored(s: TestServer, id: bigint) {
  const rows = await s.db.$queryRaw<{ key: string; json: string; num: string | null }[]>(Prisma.sql`
    SELECT p.key, p.value::text AS json, v.num::text AS num
    FROM users u CROSS JOIN LATERAL jsonb_each(u.props_custom) p
    LEFT JOIN user_prop_values v ON v.user_id = u.id AND v.key = p.key
    WHERE u.id = ${id} ORDER BY p.key`);
  return Object.fromEntries(rows.map((r) => [r.key, r.num === null ? r.json : [r.json, r.num]]));
}

describe("long integers in custom props", () => {
  it("keeps a JSON number, a JSON-encoded form parameter and a string beyond 2^53 exactly", async ({
    server,
    app,
  }) => {
    const u = await makeUser(server.db, app.app.id);
    const path = `/api/users/${u.id}/props`;
    ok(await postJsonText(server, app.token, path, ops(op("update_or_create", "json", BIG))));
    ok(await app.api.postForm(path, { operations: `[${op("update_or_create", "form", "-" + BIG)}]` }));
    ok(
      await app.api.postJson(path, {
        operations: [{ op: "update_or_create", key: "text", value: "9223372036854775807" }],
      }),
    );
    expect(await stored(server, u.id)).toEqual({
      json: [BIG, BIG],
      form: [`-${BIG}`, `-${BIG}`],
      text: ["9223372036854775807", "9223372036854775807"],
    });
    // The change as logged for the real-time API and webhooks.
    const [log] = await server.db.$queryRaw<{ big: string }[]>(Prisma.sql`
      SELECT payload -> 'props' ->> 'json' AS big FROM event_log
      WHERE user_id = ${u.id} AND type = 'user_props_changed' ORDER BY id LIMIT 1`);
    expect(log?.big).toBe(BIG);
  });

  it("returns them as JSON numbers with all their digits, and as strings with convert_props_types=false", async ({
    server,
    app,
  }) => {
    const u = await makeUser(server.db, app.app.id);
    ok(
      await postJsonText(
        server,
        app.token,
        `/api/users/${u.id}/props`,
        ops(op("update_or_create", "big", BIG), op("update_or_create", "small", "7")),
      ),
    );
    const typed = await app.api.get(`/api/users/${u.id}`, { props_custom: true });
    expect(ok(typed)).toMatchObject({ props_custom: { small: 7 } });
    expect(typed.text).toContain(`"big":${BIG}`);
    // id_as_string is for IDs only: props keep their type.
    const ids = await app.api.get(`/api/users/${u.id}`, { props_custom: true, id_as_string: true });
    expect(ids.text).toContain(`"big":${BIG}`);
    const strings = ok(
      await app.api.get(`/api/users/${u.id}`, { props_custom: true, convert_props_types: false }),
    );
    expect(strings).toMatchObject({ props_custom: { big: BIG, small: "7" } });
    // The leads list's extra columns read the same values.
    const leads = await app.api.get(`/api/apps/${app.app.id}/users`, {
      props_extra: "big",
      filters: { type: "and", filters: [{ property_name: "small", type: "eq", value: { value: 7 } }] },
    });
    expect(leads.text).toContain(`"big":${BIG}`);
  });

  it("adds exactly, and refuses a sum or a value outside 64 bits rather than rounding it", async ({
    server,
    app,
  }) => {
    const u = await makeUser(server.db, app.app.id);
    const path = `/api/users/${u.id}/props`;
    const r = await postJsonText(
      server,
      app.token,
      path,
      ops(
        op("add", "n", BIG),
        op("add", "n", "1"),
        op("update_or_create", "max", "9223372036854775807"),
        op("add", "max", "1"),
        op("add", "n", "0.5"),
        op("update_or_create", "over", "9223372036854775808"),
      ),
    );
    ok(r);
    expect(r.body.meta.affected_props).toEqual(["n", "max"]);
    expect(r.body.meta.ignored_operations).toEqual([
      { op: "add", key: "max", value: 1, reason: "integers are within -2^63 to 2^63-1" },
      { op: "add", key: "n", value: 0.5, reason: expect.stringMatching(/fraction/) as unknown },
      {
        op: "update_or_create",
        key: "over",
        value: 9223372036854776000,
        reason: "integers are within -2^63 to 2^63-1",
      },
    ]);
    // The refused value is reported as sent.
    expect(r.text).toContain('"value":9223372036854775808');
    expect(await stored(server, u.id)).toEqual({
      n: ["9007199254740994", "9007199254740994"],
      max: ["9223372036854775807", "9223372036854775807"],
    });
  });

  it("refuses a leads filter value beyond 2^53 and compares within it exactly", async ({ server, app }) => {
    const u = await makeUser(server.db, app.app.id);
    const key = unique("big");
    ok(
      await postJsonText(
        server,
        app.token,
        `/api/users/${u.id}/props`,
        ops(op("update_or_create", key, BIG)),
      ),
    );
    const filter = (type: string, value: unknown) => ({
      filters: { type: "and", filters: [{ property_name: key, type, value: { value } }] },
    });
    // As a string, and as a JSON number in the JSON-encoded parameter.
    const asNumber = `{"type":"and","filters":[{"property_name":"${key}","type":"eq","value":{"value":${BIG}}}]}`;
    for (const params of [filter("eq", BIG), { filters: asNumber }]) {
      const bad = errorOf(await app.api.get(`/api/apps/${app.app.id}/users`, params), 400, "ValidationError");
      expect(bad.error_fields).toEqual({
        "filters.filters.0.value.value": expect.stringMatching(/2\^53/) as unknown,
      });
    }
    const gt = ok<{ total: number }>(
      await app.api.get(`/api/apps/${app.app.id}/users`, filter("gt", Number.MAX_SAFE_INTEGER)),
    );
    expect(gt.total).toBe(1);
  });
});
