import { describe, expect } from "vitest";
import type { Ctx } from "../auth/context";
import { it, type TestApp } from "../testing/fixture";
import { ok } from "../users/testing";
import { listLeads } from "./list-leads";
import { DAY, serviceCtx, condition as c } from "./testing";

/**
 * A root `or` is answered from its branches' matches (or-union.ts) unless they are many; both ways must give the
 * same leads, total and pages as one WHERE. Each shape is listed three ways: the branches' union, the single WHERE
 * (`orUnionUpTo: 0`), and the fallback taken after reading some branches (`orUnionUpTo: 2`); sorted by `$last_seen`
 * descending, also from the branches' IDs alone, the page walked or each match's key probed (`orWalkPerMatch`).
 */
let ctx: Ctx;
const ids: Record<string, bigint> = {};

const or = (...filters: unknown[]) => ({ type: "or", filters });
const and = (...filters: unknown[]) => ({ type: "and", filters });

it.beforeAll(async ({ server: s, app: a }) => {
  ctx = serviceCtx(s, a, "or-union test");
  const now = Date.now();
  const make = async (key: string, data: Record<string, unknown>, tags: string[] = []) => {
    ids[key] = (await s.db.user.create({ data: { appId: a.app.id, ...data } })).id;
    for (const tag of tags) ok(await a.api.postJson(`/api/users/${ids[key]}/tags`, { tag }));
  };
  const seen = (days: number) => new Date(now - days * DAY);
  // dyn: the text branch; ger: the and-group; vip: the tag; both: the text and the tag (one row, not two);
  // gerFew: Germany but too few sessions; other: nothing; ghost: tagged, matching, but not a lead.
  await make("dyn", {
    name: "Dyn",
    sessions: 1,
    lastSeen: seen(1),
    propsCustom: { company: "Dynex", mrr: 5 },
  });
  await make("ger", {
    name: "Ger",
    country: "Germany",
    sessions: 12,
    lastSeen: seen(2),
    propsCustom: { mrr: 9 },
  });
  await make("vip", { name: "Vip", sessions: 3, lastSeen: seen(3) }, ["vip"]);
  // Seen last though made after the others: the list's order is not the IDs'.
  await make("both", { name: "Both", lastSeen: seen(0.5), propsCustom: { company: "Hydyne", mrr: 1 } }, [
    "vip",
  ]);
  await make("gerFew", { name: "Few", country: "germany", sessions: 2, lastSeen: seen(5) });
  await make("other", { name: "Other", country: "France", sessions: 40, propsCustom: { company: "Acme" } });
  await make("ghost", { country: "Germany", sessions: 50, propsCustom: { company: "dyne" } }, ["vip"]);
  ok(
    await a.api.postJson(`/api/apps/${a.app.id}/segments`, {
      name: "Germans or vips",
      filters: or(c("$country", "str_eq", { value: "GERMANY" }), c("$tag", "tag", { value: "vip" })),
    }),
  );
});

const nested = or(
  c("company", "str_contains", { value: "dyne" }),
  and(c("$country", "str_eq", { value: "Germany" }), c("$sessions", "gte", { value: 10 })),
  c("$tag", "tag", { value: "vip" }),
);

const cases: [string, unknown, string[]][] = [
  ["text, and-group, tag (the bench's nested case)", nested, ["both", "dyn", "ger", "vip"]],
  ["the same under a one-item and group", and(nested), ["both", "dyn", "ger", "vip"]],
  [
    "a segment that is itself an or, and a branch no lead meets",
    or(c("$segment", "in_segment", { value: "Germans or vips" }), c("company", "str_eq", { value: "none" })),
    ["both", "ger", "gerFew", "vip"],
  ],
  [
    "overlapping branches (each lead once)",
    or(
      c("$tag", "tag", { value: "vip" }),
      c("mrr", "lte", { value: 5 }),
      c("$sessions", "lte", { value: 3 }),
    ),
    ["both", "dyn", "gerFew", "vip"],
  ],
  [
    "an empty branch: every lead",
    or(and(), c("$tag", "tag", { value: "vip" })),
    ["both", "dyn", "ger", "gerFew", "other", "vip"],
  ],
  [
    "an or inside an and-group branch, and a negated branch",
    or(
      and(
        or(c("$country", "str_eq", { value: "France" }), c("mrr", "gt", { value: 8 })),
        c("$sessions", "gte", { value: 10 }),
      ),
      c("company", "str_ncontains", { value: "y" }),
    ),
    ["ger", "gerFew", "other", "vip"],
  ],
];

const nameOf = (id: bigint) => Object.entries(ids).find(([, x]) => x === id)?.[0] ?? String(id);

async function listed(
  a: TestApp,
  filters: unknown,
  extra: { sortProp?: string; sortOrder?: "asc" | "desc" },
  upTo?: number,
  orWalkPerMatch?: number,
) {
  const whole = await listLeads(ctx, {
    appId: a.app.id,
    filters,
    rule: "v2",
    limit: 50,
    orUnionUpTo: upTo,
    orWalkPerMatch,
    ...extra,
  });
  const pages: string[][] = [];
  for (let offset = 0; offset < whole.total + 2; offset += 2) {
    const p = await listLeads(ctx, {
      appId: a.app.id,
      filters,
      rule: "v2",
      limit: 2,
      offset,
      orUnionUpTo: upTo,
      orWalkPerMatch,
      ...extra,
    });
    expect(p.total).toBe(whole.total);
    pages.push(p.users.map((u) => nameOf(u.id)));
  }
  return { total: whole.total, names: whole.users.map((u) => nameOf(u.id)), pages };
}

describe("a root or answered from its branches", () => {
  it.for(cases)(
    "%s: the same leads, total and pages as one WHERE",
    async ([_, filters, expected], { app: a }) => {
      for (const sort of [
        {},
        { sortProp: "$last_seen", sortOrder: "asc" as const },
        { sortProp: "mrr", sortOrder: "desc" as const },
        { sortProp: "$sessions", sortOrder: "asc" as const },
      ]) {
        const union = await listed(a, filters, sort);
        expect([...union.names].sort()).toEqual(expected);
        expect(union.total).toBe(expected.length);
        expect(union.pages.flat()).toEqual(union.names);
        expect(await listed(a, filters, sort, 0)).toEqual(union);
        expect(await listed(a, filters, sort, 2)).toEqual(union);
        // Sorted by `$last_seen` descending: the page walked, the matches' keys probed, and neither (the branches
        // read with their keys).
        for (const walk of [1e9, 0, -1])
          expect(await listed(a, filters, sort, undefined, walk)).toEqual(union);
      }
    },
  );

  it("orders by the sort, then the ID, as the single WHERE does", async ({ app: a }) => {
    const r = await listed(a, nested, {});
    expect(r.names).toEqual(["both", "dyn", "ger", "vip"]);
    const bySessions = await listed(a, nested, { sortProp: "$sessions", sortOrder: "desc" });
    expect(bySessions.names).toEqual(["ger", "vip", "dyn", "both"]);
  });
});
