import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeUser } from "../testing/factories";
import { ok, type Json } from "./testing";

/** 100 conversations sharing one last_update: every page walk must return each exactly once. */
let ids: number[];
const N = 100;
const PAGE = 7;

it.beforeAll(async ({ server: s, app: a }) => {
  const user = await makeUser(s.db, a.app.id);
  await s.db.$executeRaw`
    INSERT INTO conversations (app_id, user_id, last_update, has_user_replies, parts_count)
    SELECT ${a.app.id}, ${user.id}, TIMESTAMPTZ '2026-03-01 10:00:00.123456+00', true, 1 FROM generate_series(1, ${N})`;
  ids = (await s.db.conversation.findMany({ where: { appId: a.app.id }, select: { id: true } })).map((x) =>
    Number(x.id),
  );
  expect(ids).toHaveLength(N);
});

const base = (a: TestApp) =>
  `/api/apps/${a.app.id}/conversations?user=0&part_last=0&important_part_last=0&reply_last=0`;

async function walkV2(a: TestApp, direction: "before" | "after", order: "asc" | "desc") {
  const seen: number[] = [];
  let position: unknown[] | null | undefined;
  for (let i = 0; i < 50; i++) {
    const q = new URLSearchParams({
      paginate_count: String(PAGE),
      paginate_direction: direction,
      paginate_page_order: order,
    });
    if (position) q.set("paginate_position", JSON.stringify(position));
    const r = await a.api.get(`${base(a)}&${q}`);
    const page = ok(r) as unknown as Json[];
    const got = page.map((x) => x.id as number);
    const sorted = [...got].sort((x, y) => (order === "asc" ? x - y : y - x));
    expect(got).toEqual(sorted);
    seen.push(...got);
    position = r.body.meta[direction === "before" ? "next_before_position" : "next_after_position"] as
      unknown[] | null;
    if (!position) break;
    expect(position[0]).toBe(1772359200.123456);
  }
  return seen;
}

async function walkV1(a: TestApp, order: "asc" | "desc") {
  const seen: number[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const q = new URLSearchParams({ count: String(PAGE), page_order: order, ...(after ? { after } : {}) });
    const r = await a.api.get(`/api/v1/apps/${a.app.id}/conversations?${q}`);
    seen.push(...(ok(r) as unknown as Json[]).map((x) => x.id as number));
    after = r.body.meta.next_after as string | null;
    if (!after) break;
  }
  return seen;
}

const exactlyOnce = (seen: number[]) => {
  expect(seen).toHaveLength(N);
  expect(new Set(seen).size).toBe(N);
  expect([...seen].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
};

describe("pagination over equal last_update", () => {
  it.for([
    ["before", "desc"],
    ["before", "asc"],
    ["after", "asc"],
    ["after", "desc"],
  ] as const)(
    "v2 direction=%s page_order=%s visits each conversation once",
    async ([direction, order], { app: a }) => {
      const seen = await walkV2(a, direction, order);
      exactlyOnce(seen);
      // Walking in the page order's own direction, the pages also chain into one sorted sequence.
      const ascending = [...ids].sort((x, y) => x - y);
      if (direction === "after" && order === "asc") expect(seen).toEqual(ascending);
      if (direction === "before" && order === "desc") expect(seen).toEqual([...ascending].reverse());
    },
  );

  it.for(["desc", "asc"] as const)(
    "v1 page_order=%s visits each conversation once",
    async (order, { app: a }) => {
      exactlyOnce(await walkV1(a, order));
    },
  );

  it("pages around a position: half before, half after, the position itself with paginate_including", async ({
    app: a,
  }) => {
    const sorted = [...ids].sort((x, y) => x - y);
    const mid = sorted[50]!;
    const pos = JSON.stringify([1772359200.123456, mid]);
    const r = await a.api.get(
      `${base(a)}&paginate_direction=around&paginate_count=10&paginate_including=1&paginate_position=${pos}`,
    );
    const got = (ok(r) as unknown as Json[]).map((x) => x.id as number);
    expect(got).toEqual(sorted.slice(45, 55).reverse());
    expect(r.body.meta.next_before_position).toEqual([1772359200.123456, sorted[45]]);
    expect(r.body.meta.next_after_position).toEqual([1772359200.123456, sorted[54]]);
  });

  it("accepts a bare v1 timestamp cursor (the old form) and returns string cursors", async ({ app: a }) => {
    const r = await a.api.get(`/api/v1/apps/${a.app.id}/conversations?count=5&after=1772359300`);
    expect((ok(r) as unknown as Json[]).length).toBe(5);
    expect(r.body.meta.next_after).toMatch(/^1772359200\.123456_\d+$/);
  });
});
