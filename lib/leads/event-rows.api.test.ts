import { describe, expect } from "vitest";
import type { Ctx } from "../auth/context";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeUser, unique } from "../testing/factories";
import { ok } from "../users/testing";
import { listLeads } from "./list-leads";
import { inListOrder, serviceCtx } from "./testing";

/**
 * A filter of one event condition is counted and paged from the type's summaries flagged `lead` (lead-rows.ts): a
 * page sorted by `$last_seen` walked or joined (typed-walk.ts), one sorted by the same type's count read from the
 * summaries in order. Every way must give the leads the summaries say, in the list's order, with the exact total,
 * and leave out users who are not leads.
 */
let ctx: Ctx;
let type = "";
let typeId = 0;

interface Row {
  id: bigint;
  seen: number | null;
  /** The user's events of the type (seconds). */
  at: number[];
}

const rows: Row[] = [];
const BASE = 1_767_225_600; // 2026-01-01

async function track(a: TestApp, id: bigint, created: number): Promise<number> {
  return ok<{ type: { id: number } }>(
    await a.api.postJson(`/api/users/${id}/events`, { event: type, created }),
  ).type.id;
}

it.beforeAll(async ({ server: s, app: a }) => {
  ctx = serviceCtx(s, a, "event rows test");
  type = unique("Checkout");
  for (let i = 0; i < 15; i++) {
    // Leads seen in threes at one instant, and two never seen.
    const seen = i === 4 || i === 10 ? null : (BASE + Math.floor(i / 3) * 3_600) * 1000;
    const user = await s.db.user.create({
      data: { appId: a.app.id, userId: unique("ev"), lastSeen: seen === null ? null : new Date(seen) },
    });
    // 0 to 3 events, of spread dates: i % 4 of them.
    const at = Array.from({ length: i % 4 }, (_, k) => BASE - (i * 7 + k * 3) * 86_400);
    for (const t of at) typeId = await track(a, user.id, t);
    rows.push({ id: user.id, seen, at });
  }
  // Not a lead: it did everything, and is listed by no condition.
  const visitor = await s.db.user.create({ data: { appId: a.app.id } });
  for (let k = 0; k < 5; k++) await track(a, visitor.id, BASE - k * 86_400);
});

/** The leads a predicate keeps, in the list's order. */
function bySeen(keep: (r: Row) => boolean): bigint[] {
  return inListOrder(rows.filter(keep));
}

const prop = (part: string) => `$event_${typeId}_${part}`;
const cond = (part: string, t: string, value: unknown) => ({
  property_name: prop(part),
  type: t,
  value: value === undefined ? {} : { value },
});

/** Every page of 4 of a filter, and the totals they gave. */
async function pages(a: TestApp, filter: unknown, extra: Partial<Parameters<typeof listLeads>[1]> = {}) {
  const ids: bigint[] = [];
  const totals = new Set<number>();
  for (let offset = 0; offset < 16; offset += 4) {
    const page = await listLeads(ctx, {
      appId: a.app.id,
      filters: { type: "and", filters: [filter] },
      rule: "v2",
      offset,
      limit: 4,
      ...extra,
    });
    totals.add(page.total);
    ids.push(...page.users.map((u) => u.id));
  }
  return { ids, totals: [...totals] };
}

describe("an event condition's leads from the summaries", () => {
  const cases: [string, () => unknown, (r: Row) => boolean][] = [
    ["count ≥ 2", () => cond("count", "gte", 2), (r) => r.at.length >= 2],
    ["never did it (count < 1 or none)", () => cond("count", "lt_or_unknown", 1), (r) => r.at.length < 1],
    ["count neq 2", () => cond("count", "neq", 2), (r) => r.at.length !== 2],
    ["known", () => cond("count", "known", undefined), (r) => r.at.length > 0],
    [
      "first before a date",
      () => cond("first", "date_lt", new Date((BASE - 40 * 86_400) * 1000).toISOString().slice(0, 19)),
      (r) => r.at.length > 0 && Math.min(...r.at) < BASE - 40 * 86_400,
    ],
  ];
  for (const [label, filter, keep] of cases) {
    it(`${label}: walked, joined and in v1, the same leads, order and total`, async ({ app: a }) => {
      const want = bySeen(keep);
      expect(want.length).toBeGreaterThanOrEqual(3);
      for (const walkPerMatch of [0, 1e9]) {
        expect(await pages(a, filter(), { walkPerMatch }), `${label} ${walkPerMatch}`).toEqual({
          ids: want,
          totals: [want.length],
        });
      }
      // v1 reads no lead flag (and these leads are leads in both versions).
      expect(await pages(a, filter(), { rule: "v1" })).toEqual({ ids: want, totals: [want.length] });
    });
  }

  it("a page sorted by the type's count comes from its summaries in (count, ID) order, both ways", async ({
    app: a,
  }) => {
    const did = rows.filter((r) => r.at.length >= 1);
    for (const order of ["desc", "asc"] as const) {
      const sign = order === "desc" ? -1 : 1;
      const want = [...did]
        .sort((x, y) => sign * (x.at.length - y.at.length) || sign * (x.id < y.id ? -1 : 1))
        .map((r) => r.id);
      const sorted = { sortProp: prop("count"), sortOrder: order };
      expect(await pages(a, cond("count", "gte", 1), sorted), order).toEqual({
        ids: want,
        totals: [want.length],
      });
      // Sorted by another of the type's parts: the same leads.
      const byLast = await pages(a, cond("count", "gte", 1), { sortProp: prop("last"), sortOrder: order });
      expect([...byLast.ids].sort()).toEqual([...want].sort());
    }
  });

  it("another app's event type counts none of its users", async ({ server: s, app: a }) => {
    const other = await makeApp(s.db);
    const u = await makeUser(s.db, other.app.id, { email: `${unique("o")}@example.com` });
    const t = await s.db.eventType.create({ data: { appId: other.app.id, name: unique("Other") } });
    const now = new Date();
    await s.db.userEventSummary.create({
      data: { userId: u.id, eventTypeId: t.id, first: now, last: now, count: 3 },
    });
    const filter = { property_name: `$event_${t.id}_count`, type: "gte", value: { value: 1 } };
    expect(await pages(a, filter)).toEqual({ ids: [], totals: [0] });
    const sorted = await pages(a, filter, { sortProp: `$event_${t.id}_count` });
    expect(sorted).toEqual({ ids: [], totals: [0] });
  });
});

describe("a summary's lead flag", () => {
  it("is its user's when made, follows it, and is never left behind by a concurrent change", async ({
    server: s,
    app: a,
  }) => {
    const visitors = await Promise.all(
      Array.from({ length: 6 }, () => s.db.user.create({ data: { appId: a.app.id } })),
    );
    const name = unique("Signed up");
    const total = async () => {
      const id = (await s.db.eventType.findFirst({ where: { appId: a.app.id, name } }))?.id;
      if (id === undefined) return 0;
      const page = await listLeads(ctx, {
        appId: a.app.id,
        filters: {
          type: "and",
          filters: [{ property_name: `$event_${id}_count`, type: "gte", value: { value: 1 } }],
        },
        rule: "v2",
      });
      return page.total;
    };
    // Each visitor's first event of the type while it becomes a lead.
    await Promise.all(
      visitors.map((v, k) =>
        Promise.all([
          a.api.postJson(`/api/users/${v.id}/events`, { event: name }).then(ok),
          s.db.user.update({ where: { id: v.id }, data: { email: `${unique(`l${k}`)}@example.com` } }),
        ]),
      ),
    );
    expect(await total()).toBe(6);
    await s.db.user.update({ where: { id: visitors[0]!.id }, data: { email: null } });
    expect(await total()).toBe(5);
    const [drift] = await s.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM user_event_summaries e JOIN users u ON u.id = e.user_id
      WHERE e.lead <> u.is_lead`;
    expect(drift!.n).toBe(0);
  });
});
