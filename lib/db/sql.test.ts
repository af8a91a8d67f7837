import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Prisma } from "./generated/client";
import { createTestDb, type TestDb } from "./testing";
import { sqlOf, type Queryable } from "./sql";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.close());

const SAMPLE = (q: Queryable, id: bigint) => q.$queryRaw<Record<string, unknown>[]>`
  SELECT ${id}::bigint AS id, 9007199254740993::int8 AS big, ARRAY[1::int8, NULL, 3] AS ids, ARRAY[]::int8[] AS none,
    7::int4 AS n, 1.25::float8 AS f, 12.50::numeric AS dec, 'x'::text AS s, ${["a", "b,c"]}::text[] AS tags,
    ${JSON.stringify({ k: [1, "two"] })}::jsonb AS j, json_build_object('id', 5) AS jo, true AS b, NULL::text AS nothing,
    ${new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))}::timestamptz AS at,
    '2026-01-02 03:04:05.678'::timestamp AS local, '2026-01-02'::date AS day`;

describe("sqlOf", () => {
  it("reads every type as Prisma's $queryRaw reads it", async () => {
    const raw = await SAMPLE(sqlOf(t.db), 123n);
    const viaPrisma = await SAMPLE(t.db, 123n);
    expect(raw).toEqual(viaPrisma);
    expect(raw[0]).toMatchObject({ id: 123n, big: 9007199254740993n, ids: [1n, null, 3n], none: [], n: 7 });
    expect(Prisma.Decimal.isDecimal(raw[0]?.dec)).toBe(true);
    expect((raw[0]?.at as Date).toISOString()).toBe("2026-01-02T03:04:05.678Z");
    expect((raw[0]?.local as Date).toISOString()).toBe("2026-01-02T03:04:05.678Z");
  });

  it("commits a transaction's writes, and rolls all of them back when it throws", async () => {
    const sql = sqlOf(t.db);
    const name = `sql-test-${Date.now()}`;
    await sql.transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO apps (name) VALUES (${name})`;
    });
    await expect(
      sql.transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO apps (name) VALUES (${`${name}-rolled-back`})`;
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    const rows = await t.db.app.findMany({ where: { name: { startsWith: name } }, select: { name: true } });
    expect(rows.map((r) => r.name)).toEqual([name]);
  });

  it("rolls back when a statement fails, and the connection serves the next transaction", async () => {
    const sql = sqlOf(t.db);
    await expect(sql.transaction((tx) => tx.$queryRaw`SELECT 1 / ${0}::int`)).rejects.toMatchObject({
      code: "22012",
    });
    expect(await sql.transaction((tx) => tx.$queryRaw<{ x: number }[]>`SELECT ${2}::int AS x`)).toEqual([
      { x: 2 },
    ]);
  });

  it("is the registered driver in a second copy of the module too (Next bundles route handlers apart)", async () => {
    const first = sqlOf(t.db);
    vi.resetModules();
    const copy = await import("./sql");
    const { Prisma: CopiedPrisma } = await import("./generated/client");
    expect(copy.sqlOf).not.toBe(sqlOf);
    expect(copy.sqlOf(t.db)).toBe(first);
    // A statement of the copy's own Prisma class, marked by the copy, runs on the shared driver.
    const q = copy.planEachTime(CopiedPrisma.sql`SELECT ${3}::int AS x`);
    expect(await first.$queryRaw(q)).toEqual([{ x: 3 }]);
  });
});
