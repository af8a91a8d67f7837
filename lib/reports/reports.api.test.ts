import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeSession, unique } from "../testing/factories";
import { client } from "../testing/http";
import { fails, ok } from "../conversations/testing";
import { expectedReports, percentileCont, type Filters, type Hist } from "./expected";
import {
  busiestHoursReportSchema,
  conversationsReportSchema,
  leadsReportSchema,
  operatorsReportSchema,
  REPORT_SERIES,
  responseTimesReportSchema,
} from "./schemas";

const SCHEMAS = {
  conversations: conversationsReportSchema,
  response_times: responseTimesReportSchema,
  busiest_hours: busiestHoursReportSchema,
  operators: operatorsReportSchema,
  leads: leadsReportSchema,
};
import { rng, writeHistory } from "./testing";

// A zone with a daylight-saving change inside the range: days of 23 hours are where bucketing goes wrong.
const TZ = "America/New_York";
const FROM = "2026-02-25";
const TO = "2026-03-12";
const SEED = Number(process.env.REPORTS_SEED ?? Date.now() % 1_000_000);
let h: Hist;

it.beforeAll(async ({ server: s, app: a }) => {
  ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: TZ }));
  const admins = [
    a.admin,
    await makeAdmin(s.db, { appId: a.app.id }),
    await makeAdmin(s.db, { appId: a.app.id }),
  ];
  const second = await s.db.channel.create({ data: { appId: a.app.id, name: unique("Channel") } });
  h = await writeHistory(
    s.db,
    {
      appId: a.app.id,
      tz: TZ,
      admins: admins.map((x) => ({ id: x.id, name: x.name })),
      channels: [a.channel.id, second.id],
    },
    rng(SEED),
    {
      start: Date.parse("2026-02-22T00:00:00Z"),
      end: Date.parse("2026-03-15T00:00:00Z"),
      conversations: 120,
    },
  );
}, 120_000);

/** Floats to the microsecond: PostgreSQL interpolates in float8 as we do, but instants carry microseconds. */
const settle = (v: unknown): unknown =>
  typeof v === "number" && !Number.isInteger(v)
    ? Math.round(v * 1e6) / 1e6
    : Array.isArray(v)
      ? v.map(settle)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, settle(x)]))
        : v;

/**
 * The expected side: each fraction within 5e-6 of the answer. Averages of milliseconds over a few samples often
 * end in an exact 5 past the sixth decimal, where rounding both sides splits on the last bit of a float sum.
 */
const near = (v: unknown): unknown =>
  typeof v === "number" && !Number.isInteger(v)
    ? expect.closeTo(v, 5)
    : Array.isArray(v)
      ? v.map(near)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, near(x)]))
        : v;

async function report(a: TestApp, series: string, f: Filters) {
  const params: Record<string, string> = { from: f.from, to: f.to };
  if (f.operator !== undefined) params.operator = String(f.operator);
  if (f.channel !== undefined) params.channel = String(f.channel);
  return ok(await a.api.get(`/api/apps/${a.app.id}/reports/${series}`, params));
}

describe(`GET /apps/{id}/reports/{series} against a recomputed history (seed ${SEED})`, () => {
  const cases: [string, () => Filters][] = [
    ["the whole range", () => ({ from: FROM, to: TO })],
    ["one operator", () => ({ from: FROM, to: TO, operator: h.admins[1]!.id })],
    ["one channel", () => ({ from: FROM, to: TO, channel: h.channels[1]! })],
    [
      "both, over the DST change",
      () => ({ from: "2026-03-07", to: "2026-03-09", operator: h.admins[0]!.id, channel: h.channels[0]! }),
    ],
    [
      "another operator and channel",
      () => ({ from: FROM, to: TO, operator: h.admins[2]!.id, channel: h.channels[1]! }),
    ],
    ["a single day", () => ({ from: "2026-03-08", to: "2026-03-08" })],
  ];
  it.for(cases)("every series matches for %s", async ([_, filters], { app: a }) => {
    const f = filters();
    const want = expectedReports(h, f);
    for (const series of REPORT_SERIES) {
      const got = await report(a, series, f);
      expect(() => SCHEMAS[series].parse(got)).not.toThrow();
      expect(got.time_zone).toBe(TZ);
      expect({ from: got.from, to: got.to }).toEqual({ from: f.from, to: f.to });
      expect(settle(got.series), `${series} (seed ${SEED})`).toEqual(near(want[series]));
      if (series === "response_times")
        expect(settle(got.summary), `summary (seed ${SEED})`).toEqual(near(want.response_times_summary));
    }
  });

  it("the history is not trivial: closes, answers and leads fall inside the range", async () => {
    const w = expectedReports(h, { from: FROM, to: TO });
    expect(w.conversations.reduce((n, d) => n + d.closed, 0)).toBeGreaterThan(10);
    expect(w.response_times.reduce((n, d) => n + d.first_response_count, 0)).toBeGreaterThan(10);
    expect(w.leads.reduce((n, d) => n + d.leads, 0)).toBeGreaterThan(5);
    expect(w.operators.length).toBe(3);
    // A range's median is not its days' median of medians: the summary must be computed over the range.
    expect(w.response_times_summary.first_response.count).toBeGreaterThan(10);
  });

  it("the zone moves the day boundaries: the same range under UTC differs", async ({ app: a }) => {
    const f = { from: FROM, to: TO };
    const ny = await report(a, "conversations", f);
    ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: "UTC" }));
    try {
      const utc = await report(a, "conversations", f);
      expect(utc.time_zone).toBe("UTC");
      expect(settle(utc.series)).toEqual(expectedReports({ ...h, tz: "UTC" }, f).conversations);
      expect(utc.series).not.toEqual(ny.series);
    } finally {
      ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: TZ }));
    }
  });

  // The rollups are quarter hours of UTC: a zone 5:45 or 12:45 from it must still get exact days and hours.
  it.for(["Asia/Kathmandu", "Pacific/Chatham"])("every series matches under %s", async (tz, { app: a }) => {
    ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: tz }));
    try {
      const f = { from: FROM, to: TO };
      const want = expectedReports({ ...h, tz }, f);
      for (const series of REPORT_SERIES) {
        const got = await report(a, series, f);
        expect(settle(got.series), `${series} (seed ${SEED})`).toEqual(near(want[series]));
      }
    } finally {
      ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: TZ }));
    }
  });
});

describe("reports: parameters and access", () => {
  it("percentile_cont is interpolated as PostgreSQL does", () => {
    expect(percentileCont([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentileCont([10, 20], 0.9)).toBe(19);
    expect(percentileCont([], 0.5)).toBeNull();
  });

  it.for<[{ from: string; to: string }, string]>([
    [{ from: "2026-03-10", to: "2026-03-01" }, "to"],
    [{ from: "2026-02-30", to: "2026-03-01" }, "from"],
    [{ from: "yesterday", to: "2026-03-01" }, "from"],
    [{ from: "2024-01-01", to: "2026-03-01" }, "to"],
  ])("refuses %o", async ([params, field], { app: a }) => {
    fails(
      await a.api.get(`/api/apps/${a.app.id}/reports/conversations`, params),
      400,
      "ValidationError",
      field,
    );
  });

  it("another app's reports are denied", async ({ other, app: a }) => {
    const r = await a.api.get(`/api/apps/${other.app.id}/reports/leads`, { from: FROM, to: TO });
    expect(r.status).toBe(403);
  });

  it("an operator of the app reads them with a session, as the panel does", async ({ server: s, app: a }) => {
    const op = client(s, await makeSession(s.db, a.admin.id));
    const d = ok(await op.get(`/api/apps/${a.app.id}/reports/leads`, { from: FROM, to: TO }));
    expect(d.series).toEqual(expectedReports(h, { from: FROM, to: TO }).leads);
  });

  it("the time zone must be one Intl knows", async ({ app: a }) => {
    fails(
      await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: "Mars/Olympus" }),
      400,
      "ValidationError",
      "time_zone",
    );
    const d = ok(await a.api.get(`/api/apps/${a.app.id}/settings`));
    expect(d.time_zone).toBe(TZ);
  });
});
