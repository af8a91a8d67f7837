import { describe, expect } from "vitest";
import type { Ctx } from "../auth/context";
import { Prisma } from "../db/generated/client";
import { it, type TestApp } from "../testing/fixture";
import { unique } from "../testing/factories";
import { ok } from "../users/testing";
import { compileFilters } from "./compile";
import { parseFilters } from "./filters";
import { listLeads } from "./list-leads";
import { severalConditionsWalk, typedWalkStatement } from "./typed-walk";
import { condition as cond, inListOrder, serviceCtx } from "./testing";

/**
 * A filter of one custom or tag condition pages by walking the leads in `$last_seen` order against a hash of the prop's
 * matching users, or with the one WHERE when the matches are few (typed-walk.ts): both must give the same leads in
 * the same order (ties on `last_seen`, leads never seen last), the same total, and leave out users who are not leads.
 */
let ctx: Ctx;

interface Row {
  id: bigint;
  seen: number | null;
  sessions: number;
  props: Props;
  tagged: boolean;
}

type Props = Record<string, string | number | boolean>;
const rows: Row[] = [];

it.beforeAll(async ({ server: s, app: a }) => {
  ctx = serviceCtx(s, a, "typed-walk test");
  const base = Date.UTC(2026, 0, 1);
  const plans = ["pro", "free", "PRO", "business"];
  for (let i = 0; i < 16; i++) {
    // Leads seen in threes at one instant, and two never seen.
    const seen = i === 5 || i === 11 ? null : base + Math.floor(i / 3) * 3_600_000;
    const props: Props = { plan: plans[i % 4]!, mrr: i * 3 };
    if (i % 3 !== 0) props.company = i % 2 ? `Acme ${i}` : `Globex ${i}`;
    if (i % 5 !== 0) props.beta = i % 2 === 0;
    const sessions = (i * 7) % 5;
    const user = await s.db.user.create({
      data: {
        appId: a.app.id,
        userId: unique("walk"),
        lastSeen: seen === null ? null : new Date(seen),
        sessions,
        propsCustom: props,
      },
    });
    const tagged = i % 3 === 1 || i % 4 === 0;
    if (tagged) ok(await a.api.postJson(`/api/users/${user.id}/tags`, { tag: "walk" }));
    rows.push({ id: user.id, seen, sessions, props, tagged });
  }
  // Not leads: matched by every condition, listed by none.
  const visitor = await s.db.user.create({
    data: { appId: a.app.id, sessions: 4, propsCustom: { plan: "pro", mrr: 99, beta: true } },
  });
  ok(await a.api.postJson(`/api/users/${visitor.id}/tags`, { tag: "walk" }));
});

/** The leads a predicate keeps, in the list's order. */
function expected(keep: (p: Props, r: Row) => boolean): bigint[] {
  return inListOrder(rows.filter((r) => keep(r.props, r)));
}

const text = (v: unknown) =>
  typeof v === "string" || typeof v === "number" ? String(v).toLowerCase() : null;

const cases: [string, unknown, (p: Props, r: Row) => boolean][] = [
  [
    "str_eq",
    { property_name: "plan", type: "str_eq", value: { value: "Pro" } },
    (p) => text(p.plan) === "pro",
  ],
  [
    "str_neq",
    { property_name: "plan", type: "str_neq", value: { value: "pro" } },
    (p) => text(p.plan) !== "pro",
  ],
  [
    "str_contains",
    { property_name: "company", type: "str_contains", value: { value: "ME" } },
    (p) => text(p.company)?.includes("me") ?? false,
  ],
  ["known", { property_name: "company", type: "known", value: {} }, (p) => "company" in p],
  ["unknown", { property_name: "company", type: "unknown", value: {} }, (p) => !("company" in p)],
  ["gt", { property_name: "mrr", type: "gt", value: { value: 10 } }, (p) => (p.mrr as number) > 10],
  ["bool_true", { property_name: "beta", type: "bool_true", value: {} }, (p) => p.beta === true],
  ["tag", { property_name: "$tag", type: "tag", value: { value: "walk" } }, (_, r) => r.tagged],
];

/**
 * Every way: the one WHERE (both bounds 0, no step), stepped (both bounds 0: each page within the matches), walked
 * (whenever the page lies within the matches), probed.
 */
const WAYS = [
  { walkPerMatch: 0, probePerMatch: 0, step: false },
  { walkPerMatch: 0, probePerMatch: 0 },
  { walkPerMatch: 1e9, probePerMatch: 0 },
  { walkPerMatch: 0, probePerMatch: 1e9 },
];

async function bothWays(a: TestApp, label: string, filters: unknown, want: bigint[]) {
  // At least one page lies within the matches, where the walk is taken (typed-walk.ts).
  expect(want.length, label).toBeGreaterThanOrEqual(5);
  for (const way of WAYS) {
    const got: bigint[] = [];
    for (let offset = 0; offset < 16; offset += 5) {
      const page = await listLeads(ctx, { appId: a.app.id, filters, rule: "v2", offset, limit: 5, ...way });
      expect(page.total, `${label} ${JSON.stringify(way)}`).toBe(want.length);
      got.push(...page.users.map((u) => u.id));
    }
    expect(got, `${label} ${JSON.stringify(way)}`).toEqual(want);
  }
}

describe("a custom condition's page, walked or joined", () => {
  for (const [label, condition, keep] of cases) {
    it(`${label}: the same leads, order and total both ways`, async ({ app: a }) => {
      await bothWays(a, label, { type: "and", filters: [condition] }, expected(keep));
    });
  }
});

describe("a filter of several conditions, walked or joined", () => {
  const sessions = (n: number) => cond("$sessions", "gte", { value: n });
  const several: [string, unknown[], (p: Props, r: Row) => boolean, boolean][] = [
    [
      "a negated custom condition and a system one",
      [cond("plan", "str_neq", { value: "free" }), sessions(1)],
      (p, r) => text(p.plan) !== "free" && r.sessions >= 1,
      true,
    ],
    [
      "two side conditions",
      [cond("$tag", "tag", { value: "walk" }), cond("mrr", "lt", { value: 40 })],
      (p, r) => r.tagged && (p.mrr as number) < 40,
      true,
    ],
    [
      "an `or` inside the `and`",
      [
        {
          type: "or",
          filters: [cond("company", "str_contains", { value: "me" }), cond("beta", "bool_true")],
        },
        cond("$sessions", "lte", { value: 3 }),
      ],
      (p, r) => ((text(p.company)?.includes("me") ?? false) || p.beta === true) && r.sessions <= 3,
      true,
    ],
    [
      "a segment of a side and a system condition",
      [cond("$segment", "in_segment", { value: "walked segment" })],
      (p, r) => text(p.plan) !== "free" && r.sessions >= 1,
      true,
    ],
    [
      "a condition on a column the leads index does not hold: never walked",
      [cond("plan", "str_neq", { value: "free" }), cond("$last_contacted", "unknown")],
      (p) => text(p.plan) !== "free",
      false,
    ],
  ];
  it.beforeAll(async ({ server: s, app: a }) => {
    await s.db.segment.create({
      data: { appId: a.app.id, name: "walked segment", filters: several[0]![1] as Prisma.InputJsonValue },
    });
  });
  for (const [label, items, keep, walkable] of several) {
    it(`${label}: the same leads, order and total both ways`, async ({ server: s, app: a }) => {
      const filters = { type: "and", filters: items };
      const walk = await severalConditionsWalk(a.app.id, new Date(), (membership) =>
        compileFilters(parseFilters(filters), { db: s.db, appId: a.app.id, leadsOnly: true, membership }),
      );
      expect(walk !== null, label).toBe(walkable);
      await bothWays(a, label, filters, expected(keep));
    });
  }
});

describe("the step", () => {
  it("pages within the matches without the one WHERE, which pages past them", async ({
    server: s,
    app: a,
  }) => {
    // Each lead the one WHERE would read divides by zero: the statement fails if that side runs at all.
    const base = Prisma.sql`u.app_id = ${a.app.id} AND u.is_lead`;
    const run = (total: number, offset: number) => {
      const q = typedWalkStatement({
        member: Prisma.sql`TRUE`,
        total: Prisma.sql`SELECT ${total}::int AS total`,
        hashed: () => Prisma.sql`${total}`,
        base,
        where: Prisma.sql`${base} AND 1 / (u.id - u.id) = 1`,
        leads: Prisma.sql`${rows.length}`,
        limit: 5,
        offset,
        perMatch: 0,
        probePerMatch: 0,
        stepped: Prisma.sql`(SELECT TRUE WHERE u.id % 2 = 0 LIMIT 1) IS TRUE`,
      });
      return s.db.$queryRaw<{ id: bigint }[]>(Prisma.sql`${q.with} ${q.ids}`);
    };
    const even = inListOrder(rows.filter((r) => r.id % 2n === 0n));
    expect((await run(even.length, 0)).map((r) => r.id)).toEqual(even.slice(0, 5));
    expect((await run(even.length, even.length - 5)).map((r) => r.id)).toEqual(even.slice(-5));
    await expect(run(even.length, even.length - 4)).rejects.toThrow(/division by zero/);
  });
});

describe("a tag's lead flag", () => {
  it("follows its user becoming a lead and ceasing to be one, and the tag's total with it", async ({
    server: s,
    app: a,
  }) => {
    const tag = unique("tag");
    const total = async () =>
      (
        await listLeads(ctx, {
          appId: a.app.id,
          filters: { type: "and", filters: [{ property_name: "$tag", type: "tag", value: { value: tag } }] },
          rule: "v2",
        })
      ).total;
    const visitor = await s.db.user.create({ data: { appId: a.app.id } });
    ok(await a.api.postJson(`/api/users/${visitor.id}/tags`, { tag }));
    expect(await total()).toBe(0);
    await s.db.user.update({ where: { id: visitor.id }, data: { email: `${unique("t")}@example.com` } });
    expect(await total()).toBe(1);
    await s.db.user.update({ where: { id: visitor.id }, data: { email: null } });
    expect(await total()).toBe(0);
    const [drift] = await s.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM user_tags t JOIN users u ON u.id = t.user_id WHERE t.lead <> u.is_lead`;
    expect(drift!.n).toBe(0);
  });
});
