import { describe, expect } from "vitest";
import { serverTest } from "../testing/server-test";
import { makeCatalogObjects, type CatalogObjects } from "../testing/catalog-objects";
import { fingerprint } from "../testing/fingerprint";
import type { Client } from "../testing/http";
import { errorOf } from "../users/testing";

const it = serverTest({ webhookAllowPrivate: true });

/** The parameter helpers of lib/api/zod.ts through real requests: what each bad value is told. */
let o: CatalogObjects;

it.beforeAll(async ({ server: s, app: a }) => {
  o = await makeCatalogObjects(s, a);
});

const fieldsOf = (r: Awaited<ReturnType<Client["get"]>>) => errorOf(r, 400, "ValidationError").error_fields;

describe("a wrong value says what is wrong, a missing one that it is required", () => {
  it("integers, numbers, IDs, booleans and strings, in the query and in a JSON body", async ({ app: a }) => {
    const active = `/api/apps/${o.app}/activeusers`;
    expect(fieldsOf(await a.api.get(active, { limit: "abc" }))).toEqual({ limit: "must be an integer" });
    expect(fieldsOf(await a.api.get(active, { limit: "1.5" }))).toEqual({ limit: "must be an integer" });
    expect(fieldsOf(await a.api.get(active, { limit: [] }))).toEqual({ limit: "must be an integer" });
    const user = `/api/users/${o.user}`;
    expect(fieldsOf(await a.api.get(user, { app: "abc" }))).toEqual({
      app: "must be an ID (a positive integer)",
    });
    const delay = `/api/conversations/${o.conversation}/delay`;
    expect(fieldsOf(await a.api.postJson(delay, { until: "soon" }))).toEqual({ until: "must be a number" });
    const notes = `/api/users/${o.user}/notes`;
    expect(fieldsOf(await a.api.postJson(notes, { body: {} }))).toEqual({ body: "must be a string" });
    expect(fieldsOf(await a.api.postJson(notes, {}))).toEqual({ body: "is required" });
    const webpush = `/api/users/${o.user}/webpush`;
    expect(fieldsOf(await a.api.postJson(webpush, { subscribed: [1] }))).toEqual({
      subscribed: "must be a boolean",
    });
    expect(fieldsOf(await a.api.postJson(webpush, {}))).toEqual({ subscribed: "is required" });
  });
});

describe("JSON-encoded parameters holding text PostgreSQL cannot store", () => {
  const op = (key: string, value: unknown) => [{ op: "update_or_create", key, value }];
  // JSON.stringify writes a lone surrogate as the escape `\ud800`: the parameter's text itself is valid.
  const cases: [string, string, Record<string, string>, string][] = [
    [
      "props operations (value)",
      `/api/users/${"{user}"}/props`,
      { operations: JSON.stringify(op("k", "a\ud800")) },
      "operations",
    ],
    [
      "props operations (key)",
      `/api/users/${"{user}"}/props`,
      { operations: JSON.stringify(op("k\udc00", 1)) },
      "operations",
    ],
    [
      "event params (key)",
      `/api/users/${"{user}"}/events`,
      { event: "E", params: JSON.stringify({ "\ud800": 1 }) },
      "params",
    ],
    [
      "reply body_json",
      `/api/conversations/${"{conversation}"}/reply`,
      { body: "hi", body_json: JSON.stringify({ x: ["\udfff"] }) },
      "body_json",
    ],
    [
      "reply actions",
      `/api/conversations/${"{conversation}"}/reply`,
      { body: "hi", actions: JSON.stringify([{ type: "quick_reply", body: "b\ud800" }]) },
      "actions",
    ],
    [
      "segment filters",
      `/api/apps/${"{app}"}/segments`,
      {
        name: "S",
        filters: JSON.stringify({
          type: "and",
          filters: [{ property_name: "p\ud800", type: "known", value: {} }],
        }),
      },
      "filters",
    ],
    [
      "a JSON list",
      `/api/v2/apps/${"{app}"}/webhooks`,
      { url: "http://127.0.0.1:9/h", events: JSON.stringify(["user.event\ud800"]) },
      "events",
    ],
  ];

  it.for(cases)(
    "%s: a ValidationError, in a form body and in a JSON body, writing nothing",
    async ([_n, path, form, field], { server: s, app: a }) => {
      const url = path.replace(/\{(\w+)\}/g, (_m, k: string) => (o as unknown as Record<string, string>)[k]!);
      const before = await fingerprint(s.db);
      expect(fieldsOf(await a.api.postForm(url, form))).toHaveProperty(
        [field],
        expect.stringMatching(/Unicode/),
      );
      expect(fieldsOf(await a.api.postJson(url, form))).toHaveProperty(
        [field],
        expect.stringMatching(/Unicode/),
      );
      expect(await fingerprint(s.db)).toBe(before);
    },
  );

  it("in a leads filter in the query string", async ({ app: a }) => {
    const filters = JSON.stringify({
      type: "and",
      filters: [{ property_name: "p", type: "str_eq", value: { value: "\ud800" } }],
    });
    expect(fieldsOf(await a.api.get(`/api/apps/${o.app}/users`, { filters }))).toEqual({
      filters: "filters.0.value.value: must be valid Unicode (a lone surrogate)",
    });
  });
});
