import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { errorOf, ok } from "../users/testing";
import { DAY, listLeads, one, seedLeads } from "./testing";

let ids: Record<string, bigint>;
let bought: number;

it.beforeAll(async ({ server: s, app: a }) => {
  ({ ids, bought } = await seedLeads(s.db, a));
});

const leads = (a: TestApp, filters?: unknown, extra: Record<string, unknown> = {}, v = "") =>
  listLeads(a, ids, filters, extra, v);
const sorted = async (a: TestApp, filters: unknown) => (await leads(a, filters)).names.sort();

describe("GET /apps/{id}/users filters", () => {
  it("lists leads only, lead-shaped, with the total", async ({ app: a }) => {
    const r = await leads(a);
    expect(r.total).toBe(4);
    expect(r.names.sort()).toEqual(["ann", "bob", "cid", "pushy"]);
    expect(Object.keys(r.users[0]!).sort()).toEqual(["id", "presence", "props"]);
  });

  it.for<[string, string, unknown, string[]]>([
    ["$phone", "known", {}, ["bob"]],
    ["$phone", "unknown", {}, ["ann", "cid", "pushy"]],
    ["plan", "known", {}, ["ann", "bob"]],
    ["plan", "unknown", {}, ["cid", "pushy"]],
    ["$sessions", "eq", { value: 10 }, ["ann"]],
    ["$sessions", "neq", { value: 10 }, ["bob", "cid", "pushy"]],
    ["$sessions", "gt", { value: 1 }, ["ann", "bob"]],
    ["$sessions", "gte", { value: 2 }, ["ann", "bob"]],
    ["$sessions", "lt", { value: 2 }, ["cid", "pushy"]],
    ["$sessions", "lte", { value: "2" }, ["bob", "cid", "pushy"]],
    ["seats", "gt", { value: 5 }, ["ann"]],
    ["seats", "gt_or_unknown", { value: 5 }, ["ann", "cid", "pushy"]],
    ["seats", "lt_or_unknown", { value: 5 }, ["bob", "cid", "pushy"]],
    ["seats", "range", { value1: 12, value2: 1 }, ["ann", "bob"]],
    ["$name", "str_eq", { value: "ann lee" }, ["ann"]],
    ["$name", "str_neq", { value: "ANN LEE" }, ["bob", "cid", "pushy"]],
    ["$email", "str_contains", { value: "B.TEST" }, ["bob"]],
    ["$email", "str_ncontains", { value: "b.test" }, ["ann", "cid", "pushy"]],
    ["$name", "str_starts", { value: "An" }, ["ann"]],
    ["plan", "str_eq", { value: "PRO" }, ["ann"]],
    ["$user_id", "str_eq", { value: "cid-1" }, ["cid"]],
    ["trial", "bool_true", {}, ["bob"]],
    ["trial", "bool_false", {}, ["ann"]],
    ["$last_seen", "daysless", { value: 5 }, ["ann"]],
    ["$last_seen", "daysmore", { value: 5 }, ["bob"]],
    ["signup", "date_gt", { value: "2024-02-01" }, ["bob"]],
    ["signup", "date_lt", { value: 1_706_745_600 }, ["ann"]],
    ["signup", "date_range", { value1: "2024-01-01", value2: "2024-02-01T00:00:00Z" }, ["ann"]],
    ["$last_seen", "date_gt", { value: Math.floor((Date.now() - 2 * DAY) / 1000) }, ["ann"]],
    ["interests", "list_contains", { value: "ai" }, ["ann"]],
    ["interests", "list_ncontains", { value: "ai" }, ["bob", "cid", "pushy"]],
    ["$tag", "tag", { value: "vip" }, ["ann"]],
  ])("%s %s %j", async ([prop, type, value, expected], { app: a }) => {
    expect(await sorted(a, one(prop, type, value))).toEqual(expected);
  });

  it("filters on event props", async ({ app: a }) => {
    expect(await sorted(a, one(`$event_${bought}_count`, "gte", { value: 2 }))).toEqual(["ann"]);
    expect(await sorted(a, one(`$event_${bought}_count`, "unknown"))).toEqual(["cid", "pushy"]);
    expect(await sorted(a, one(`$event_${bought}_last`, "daysless", { value: 1 }))).toEqual(["ann"]);
    expect(await sorted(a, one(`$event_${bought}_first`, "daysmore", { value: 2 }))).toEqual(["bob"]);
    // Conditions that hold for a missing value include the leads who never had the event.
    expect(await sorted(a, one(`$event_${bought}_count`, "neq", { value: 3 }))).toEqual([
      "bob",
      "cid",
      "pushy",
    ]);
    expect(await sorted(a, one(`$event_${bought}_count`, "lt_or_unknown", { value: 2 }))).toEqual([
      "bob",
      "cid",
      "pushy",
    ]);
    expect(await sorted(a, one(`$event_${bought}_count`, "known"))).toEqual(["ann", "bob"]);
    expect(await sorted(a, one(`$event_${bought}_count`, "range", { value1: 1, value2: 2 }))).toEqual([
      "bob",
    ]);
  });

  it("combines nested and/or groups", async ({ app: a }) => {
    const tree = {
      type: "or",
      filters: [
        { property_name: "$user_id", type: "known", value: {} },
        {
          type: "and",
          filters: [one("plan", "str_eq", { value: "free" }), one("$sessions", "gte", { value: 2 })],
        },
      ],
    };
    expect(await sorted(a, tree)).toEqual(["bob", "cid"]);
    expect(await sorted(a, { type: "or", filters: [] })).toEqual(["ann", "bob", "cid", "pushy"]);
    expect(await sorted(a, [{ property_name: "$name", type: "known" }])).toEqual(["ann", "bob"]);
    expect((await leads(a, "")).total).toBe(4);
  });

  it("expands segments, also nested ones", async ({ app: a }) => {
    const pro = ok<{ id: number }>(
      await a.api.postJson(`/api/apps/${a.app.id}/segments`, {
        name: "Pro",
        filters: one("plan", "str_eq", { value: "pro" }),
      }),
    );
    const nested = ok<{ id: number }>(
      await a.api.postJson(`/api/apps/${a.app.id}/segments`, {
        name: "Pro or phone",
        filters: {
          type: "or",
          filters: [one("$segment", "in_segment", { value: "Pro" }), one("$phone", "known")],
        },
      }),
    );
    expect(await sorted(a, one("$segment", "in_segment", { value: pro.id }))).toEqual(["ann"]);
    expect(await sorted(a, one("$segment", "in_segment", { value: String(nested.id) }))).toEqual([
      "ann",
      "bob",
    ]);
    const fields = errorOf(
      await a.api.get(`/api/apps/${a.app.id}/users`, {
        filters: one("$segment", "in_segment", { value: 999 }),
      }),
      400,
      "ValidationError",
    ).error_fields;
    expect(fields).toEqual({ "filters.filters.0.value": "no segment 999 in this app" });
  });
});
