import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeUser } from "../testing/factories";
import { fails, ok, startConversation } from "../conversations/testing";
import { REPORT_SERIES } from "../reports/schemas";

/**
 * Dates outside the years 1 to 9999 (lib/contract/dates.ts) wherever the API takes one: a ValidationError naming
 * the parameter, never a 500 (year 0 parses in JavaScript and fails in PostgreSQL).
 */
const YEAR_0 = "0000-01-01";
const YEAR_10000 = "10000-01-01";
/** The same days as Unix seconds. */
const YEAR_0_SECONDS = -62_167_219_200;
const YEAR_10000_SECONDS = 253_402_300_800;

describe("days out of the years 1 to 9999", () => {
  it.for(REPORT_SERIES)("the %s report refuses them in from and to", async (series, { app }) => {
    const path = `/api/apps/${app.app.id}/reports/${series}`;
    for (const day of [YEAR_0, YEAR_10000]) {
      const from = await app.api.get(path, { from: day, to: "2026-01-01" });
      fails(from, 400, "ValidationError", "from");
      expect(from.body.meta.error_fields).toMatchObject({
        from: expect.stringMatching(/years 1 to 9999/) as unknown,
      });
      fails(await app.api.get(path, { from: "2026-01-01", to: day }), 400, "ValidationError", "to");
    }
    // The years' own ends are served.
    ok(await app.api.get(path, { from: "0001-01-01", to: "0001-01-02" }));
    ok(await app.api.get(path, { from: "9999-12-30", to: "9999-12-31" }));
  });
});

describe("other date parameters", () => {
  it("snoozing until a time out of the years is refused", async ({ server, app }) => {
    const c = await startConversation(app.api, server.db, app.app.id);
    for (const until of [YEAR_0_SECONDS, YEAR_10000_SECONDS]) {
      fails(
        await app.api.postForm(`/api/conversations/${c.id}/delay`, { until: String(until) }),
        400,
        "ValidationError",
        "until",
      );
    }
  });

  it("search from and to out of the years are refused", async ({ app }) => {
    for (const at of [YEAR_0_SECONDS, YEAR_10000_SECONDS]) {
      for (const field of ["from", "to"]) {
        const r = await app.api.get(`/api/apps/${app.app.id}/search`, { q: "x", [field]: String(at) });
        fails(r, 400, "ValidationError", field);
      }
    }
  });

  it("leads filters with dates out of the years are refused", async ({ app }) => {
    const when = (value: unknown) => ({ property_name: "$last_seen", type: "date_gt", value: { value } });
    const range = (value1: unknown, value2: unknown) => ({
      property_name: "when",
      type: "date_range",
      value: { value1, value2 },
    });
    for (const [filters, field] of [
      [[when(`${YEAR_0}T00:00:00`)], "filters.0.value.value"],
      [[when(YEAR_10000_SECONDS)], "filters.0.value.value"],
      [[range("2026-01-01", YEAR_0_SECONDS)], "filters.0.value.value2"],
      [[range(`${YEAR_10000}T00:00:00`, "2026-01-01")], "filters.0.value.value1"],
    ] as const) {
      const r = await app.api.get(`/api/apps/${app.app.id}/users`, { filters: JSON.stringify(filters) });
      fails(r, 400, "ValidationError", field);
    }
  });

  it("$last_seen out of the years is an ignored operation, the others applied", async ({ server, app }) => {
    const u = await makeUser(server.db, app.app.id);
    const values = [`${YEAR_0}T00:00:00`, `${YEAR_10000}T00:00:00`, YEAR_0_SECONDS, YEAR_10000_SECONDS];
    const r = await app.api.postJson(`/api/users/${u.id}/props`, {
      operations: [
        ...values.map((value) => ({ op: "update_or_create", key: "$last_seen", value })),
        { op: "update_or_create", key: "$name", value: "Dated" },
      ],
    });
    ok(r);
    const ignored = r.body.meta.ignored_operations as { value: unknown; reason: string }[];
    expect(ignored.map((x) => x.value)).toEqual(values);
    for (const x of ignored) expect(x.reason).toMatch(/years 1 to 9999/);
  });
});
