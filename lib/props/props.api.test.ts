import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeToken, makeUser, unique } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";

const props = (a: TestApp, id: bigint | string, body: Record<string, unknown>, v = "") =>
  a.api.postJson(`/api${v}/users/${id}/props`, body);
const custom = async (s: TestServer, id: bigint) =>
  (await s.db.user.findUniqueOrThrow({ where: { id } })).propsCustom;

describe("POST /users/{id}/props", () => {
  it("applies every operation in order and reports affected, unchanged and ignored props", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id);
    await s.db.user.update({ where: { id: u.id }, data: { propsCustom: { tags: ["a"], same: "x" } } });
    const r = await props(a, u.id, {
      operations: [
        { op: "update_or_create", key: "$name", value: "Bo" },
        { op: "update_or_create", key: "$name", value: 5 },
        { op: "set_once", key: "same", value: "y" },
        { op: "add", key: "score", value: 10 },
        { op: "add", key: "score", value: -3 },
        { op: "append", key: "tags", value: "b" },
        { op: "union", key: "tags", value: ["a", "c"] },
        { op: "exclude", key: "tags", value: "b" },
        { op: "delete", key: "missing" },
        { op: "teleport", key: "x", value: 1 },
      ],
    });
    expect(ok(r)).toEqual({ id: Number(u.id), app: Number(a.app.id) });
    expect(r.body.meta.affected_props).toEqual(["$name", "score", "tags"]);
    expect(r.body.meta.not_changed_props).toEqual(["same", "missing"]);
    expect(r.body.meta.ignored_operations).toEqual([
      { op: "update_or_create", key: "$name", value: 5, reason: "$name is a string property" },
      { op: "teleport", key: "x", value: 1, reason: expect.stringMatching(/unknown op/) as unknown },
    ]);
    expect(await custom(s, u.id)).toEqual({ same: "x", score: 7, tags: ["a", "c"] });
    expect((await s.db.user.findUniqueOrThrow({ where: { id: u.id } })).name).toBe("Bo");
    const log = await s.db.eventLogEntry.findFirstOrThrow({
      where: { channel: `user_props_changed.${a.app.id}`, userId: u.id },
    });
    expect(log.payload).toMatchObject({ props: { $name: "Bo", score: 7, tags: ["a", "c"] } });
  });

  it("accepts a form body with operations as a JSON string, and parses custom types unless told not to", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id);
    const ops = JSON.stringify([
      { op: "update_or_create", key: "n", value: "42" },
      { op: "update_or_create", key: "b", value: "true" },
      { op: "update_or_create", key: "d", value: "2024-05-01 10:00" },
    ]);
    ok(await a.api.postForm(`/api/users/${u.id}/props`, { operations: ops }));
    expect(await custom(s, u.id)).toEqual({ n: 42, b: true, d: "2024-05-01T10:00:00" });
    ok(
      await a.api.postForm(`/api/users/${u.id}/props`, {
        operations: ops,
        parse_custom_props_type: "false",
      }),
    );
    // A JSON escape turns into a NUL only once parsed, past the edge's own check: it is refused, not a 500.
    const nul = await a.api.postForm(`/api/users/${u.id}/props`, {
      operations: '[{"op":"update_or_create","key":"x","value":"a\\u0000b"}]',
    });
    expect(nul.body.meta.ignored_operations).toEqual([
      expect.objectContaining({ reason: "contains a NUL character" }),
    ]);
    expect(await custom(s, u.id)).toEqual({ n: "42", b: "true", d: "2024-05-01 10:00" });
  });

  it("creates the user with by_user_id and then updates the same one", async ({ server: s, app: a }) => {
    const key = unique("ext");
    const first = ok(
      await props(a, key, { by_user_id: true, operations: [{ op: "add", key: "visits", value: 1 }] }),
    );
    const second = ok(
      await props(a, key, { by_user_id: true, operations: [{ op: "add", key: "visits", value: 1 }] }),
    );
    expect(second.id).toBe(first.id);
    expect(await custom(s, BigInt(first.id as number))).toEqual({ visits: 2 });
    const created = await s.db.eventLogEntry.findMany({
      where: { type: "lead_created", userId: BigInt(first.id as number) },
    });
    expect(created).toHaveLength(1);
  });

  it("re-subscribes an unsubscribed email only with double_subscribe", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id, { email: "old@example.test" });
    ok(await a.api.postJson(`/api/users/${u.id}/unsubscribeemail`));
    const status = async () => (await s.db.user.findUniqueOrThrow({ where: { id: u.id } })).emailStatus;
    expect(await status()).toBe("unsubscribed");
    ok(
      await props(a, u.id, {
        operations: [{ op: "update_or_create", key: "$email", value: "new@example.test" }],
      }),
    );
    expect(await status()).toBe("unsubscribed");
    ok(
      await props(a, u.id, {
        double_subscribe: true,
        operations: [{ op: "update_or_create", key: "$email", value: "new@example.test" }],
      }),
    );
    expect(await status()).toBe("subscribed");
  });

  it("records the source of $email and $phone", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id);
    ok(
      await props(a, u.id, {
        source: { type: "popup_small", id: 77 },
        operations: [
          { op: "update_or_create", key: "$phone", value: "+1 555" },
          { op: "update_or_create", key: "plan", value: "pro" },
        ],
      }),
    );
    const view = ok(await a.api.get(`/api/users/${u.id}`, { props_sources: true }));
    expect(view.props_sources).toEqual({
      $phone: { type: "popup_small", id: 77, at: expect.any(String) as unknown },
    });
    const bad = await props(a, u.id, { source: { id: 1 }, operations: [] });
    expect(errorOf(bad, 400, "ValidationError").error_fields).toHaveProperty("source.type");
  });

  it("ignores date-times outside the years 1 to 9999 with a reason, and applies the other operations", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id);
    const outOfRange = [
      "0000-01-01T00:00:00",
      "0000-12-31T23:59:59Z",
      -99_999_999_999,
      "10000-01-01T00:00:00",
    ];
    const r = await props(a, u.id, {
      operations: [
        ...outOfRange.map((value) => ({ op: "update_or_create", key: "$last_seen", value })),
        { op: "update_or_create", key: "$last_contacted", value: "0001-01-01T00:00:00" },
        { op: "update_or_create", key: "plan", value: "pro" },
      ],
    });
    ok(r);
    expect(r.body.meta.ignored_operations).toEqual(
      outOfRange.map((value) => ({
        op: "update_or_create",
        key: "$last_seen",
        value,
        reason: "$last_seen is a date-time property (ISO 8601 or Unix seconds, years 1 to 9999)",
      })),
    );
    expect(r.body.meta.affected_props).toEqual(["$last_contacted", "plan"]);
    expect(await custom(s, u.id)).toEqual({ plan: "pro" });
    const row = await s.db.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(row.lastSeen).toBeNull();
    expect(row.lastContacted?.toISOString()).toBe("0001-01-01T00:00:00.000Z");
  });

  it("refuses a request without operations, with malformed JSON or with more than 250", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id);
    expect(errorOf(await props(a, u.id, {}), 400, "ValidationError").error_fields).toEqual({
      operations: "is required",
    });
    expect(
      errorOf(await a.api.postForm(`/api/users/${u.id}/props`, { operations: "[{" }), 400, "ValidationError")
        .error_fields,
    ).toEqual({
      operations: "must be valid JSON",
    });
    expect(
      errorOf(await props(a, u.id, { operations: { op: "add" } }), 400, "ValidationError").error_fields,
    ).toHaveProperty("operations");
    const many = Array.from({ length: 251 }, (_, i) => ({ op: "update_or_create", key: `k${i}`, value: i }));
    expect(errorOf(await props(a, u.id, { operations: many }), 400, "ValidationError").error_fields).toEqual({
      operations: "must have at most 250 operations",
    });
    ok(await props(a, u.id, { operations: many.slice(0, 250) }));
    expect(Object.keys((await custom(s, u.id)) as object)).toHaveLength(250);
    errorOf(await props(a, 99_999_999n, { operations: [] }), 400, "LookupError");
  });
});

describe("POST /v1/users/{id}/props", () => {
  it("answers with empty data; operations that changed nothing count as ignored", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id, { name: "Cy" });
    const r = await props(
      a,
      u.id,
      {
        operations: [
          { op: "update_or_create", key: "$name", value: "Cy" },
          { op: "update_or_create", key: "$city", value: "Oslo" },
          { op: "update_or_create", key: "note", value: "" },
        ],
      },
      "/v1",
    );
    expect(ok(r)).toEqual({});
    expect(r.body.meta.affected_props).toEqual(["$city"]);
    expect(r.body.meta).not.toHaveProperty("not_changed_props");
    expect(
      (r.body.meta.ignored_operations as { key: string; reason: string }[]).map((i) => [i.key, i.reason]),
    ).toEqual([
      ["note", "empty value (use op delete to remove a property)"],
      ["$name", "changed nothing"],
    ]);
    const narrow = await makeToken(s.db, a.app.id, ["user-read"]);
    errorOf(
      await client(s, narrow).postJson(`/api/v1/users/${u.id}/props`, { operations: [] }),
      403,
      "PermissionDenied",
    );
  });
});
