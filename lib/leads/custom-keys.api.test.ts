import { describe, expect } from "vitest";
import type { Ctx } from "../auth/context";
import { sqlOf } from "../db/sql";
import { it, type TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { unique } from "../testing/factories";
import { resolveCustomKeys } from "./custom-keys";
import { parseFilters, type Condition } from "./filters";
import { listLeads } from "./list-leads";
import { inListOrder, one, serviceCtx } from "./testing";

/**
 * A custom text contains is answered from the prop's values that contain the text when the app has few of them
 * (custom-keys.ts), and from `strpos` on every row past that: both must keep the leads whose value, as text and
 * lower-cased, contains it, and its negation the others (a lead without the prop included).
 */
let ctx: Ctx;
const BASE = Date.UTC(2026, 0, 1);
/** Each lead's `industry` (undefined: none) and when it was seen. */
const VALUES: unknown[] = [
  "Fintech",
  "Biotech",
  "Retail",
  "Ed-Tech Labs",
  "tech",
  "TECHNOLOGY",
  1042,
  true,
  undefined,
  "Fintech",
  "Tec h",
  undefined,
];
const rows: { id: bigint; seen: number | null; value: unknown }[] = [];

it.beforeAll(async ({ server: s, app: a }) => {
  ctx = serviceCtx(s, a, "custom keys test");
  for (const [i, value] of VALUES.entries()) {
    const seen = i === 5 ? null : BASE + Math.floor(i / 2) * 60_000;
    const user = await s.db.user.create({
      data: {
        appId: a.app.id,
        userId: unique("ck"),
        lastSeen: seen === null ? null : new Date(seen),
        propsCustom: value === undefined ? {} : { industry: value },
      },
    });
    rows.push({ id: user.id, seen, value });
  }
  // Not a lead (no user ID, never seen): its value is walked, and it is listed by no condition.
  await s.db.user.create({ data: { appId: a.app.id, propsCustom: { industry: "Agritech" } } });
});

/** The value as text (the leads here hold strings, numbers and booleans only), lower-cased, contains `text`. */
const has = (v: unknown, text: string) =>
  (typeof v === "string" || typeof v === "number" || typeof v === "boolean") &&
  String(v).toLowerCase().includes(text);

async function keysOf(
  s: TestServer,
  a: TestApp,
  filters: unknown,
  upTo?: number,
): Promise<string[] | undefined> {
  const tree = parseFilters(filters);
  await resolveCustomKeys(sqlOf(s.db), a.app.id, tree, new Map(), upTo);
  return (tree.items[0] as Condition).keys;
}

/** Every page of 3 of a filter, and the totals they gave. */
async function pages(a: TestApp, filters: unknown, customKeysUpTo?: number) {
  const ids: bigint[] = [];
  const totals = new Set<number>();
  for (let offset = 0; offset < 15; offset += 3) {
    const page = await listLeads(ctx, {
      appId: a.app.id,
      filters,
      rule: "v2",
      offset,
      limit: 3,
      customKeysUpTo,
    });
    totals.add(page.total);
    ids.push(...page.users.map((u) => u.id));
  }
  return { ids, totals: [...totals] };
}

describe("custom text contains from the prop's values", () => {
  it("finds the values that contain the text, every user's, and none past the walk's limit", async ({
    server: s,
    app: a,
  }) => {
    const contains = (value: string) => one("industry", "str_contains", { value });
    expect((await keysOf(s, a, contains("TECH")))?.sort()).toEqual([
      "agritech",
      "biotech",
      "ed-tech labs",
      "fintech",
      "tech",
      "technology",
    ]);
    expect(await keysOf(s, a, contains("04"))).toEqual(["1042"]);
    expect(await keysOf(s, a, contains("nowhere"))).toEqual([]);
    // Ten values in the app: walked up to nine, the condition keeps `strpos`.
    expect(await keysOf(s, a, contains("tech"), 10)).toBeDefined();
    expect(await keysOf(s, a, contains("tech"), 9)).toBeUndefined();
    expect(await keysOf(s, a, one("industry", "str_eq", { value: "tech" }))).toBeUndefined();
  });

  const cases: [string, unknown, (v: unknown) => boolean][] = [
    ["contains", one("industry", "str_contains", { value: "TECH" }), (v) => has(v, "tech")],
    ["does not contain", one("industry", "str_ncontains", { value: "tech" }), (v) => !has(v, "tech")],
    ["contains a number's digits", one("industry", "str_contains", { value: "04" }), (v) => has(v, "04")],
    ["contains nothing there", one("industry", "str_contains", { value: "zz" }), () => false],
    [
      "either of two texts (an `or`)",
      {
        type: "or",
        filters: [
          { property_name: "industry", type: "str_contains", value: { value: "bio" } },
          { property_name: "industry", type: "str_contains", value: { value: "ret" } },
        ],
      },
      (v) => has(v, "bio") || has(v, "ret"),
    ],
  ];
  for (const [label, filters, keep] of cases) {
    it(`${label}: the same leads, order and total from the values and from every row`, async ({ app: a }) => {
      const want = inListOrder(rows.filter((r) => keep(r.value)));
      for (const upTo of [undefined, 0]) {
        expect(await pages(a, filters, upTo), `${label} ${upTo}`).toEqual({
          ids: want,
          totals: [want.length],
        });
      }
    });
  }
});
