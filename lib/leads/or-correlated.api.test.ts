import { expect } from "vitest";
import { Prisma } from "../db/generated/client";
import { it } from "../testing/fixture";
import { compileFilters } from "./compile";
import { parseFilters } from "./filters";

const c = (property_name: string, type: string, value: Record<string, unknown> = {}) => ({
  property_name,
  type,
  value,
});

/** Thrown to roll a transaction back with the plan it read. */
class Plan extends Error {
  constructor(readonly text: string) {
    super("rolled back");
  }
}

it("looks a side table's rows up by the lead under an or, never scanning a list too large to hash once per lead", async ({
  server,
  app,
}) => {
  // As `u.id IN (…)` under an `or`, PostgreSQL hashes the list only while it fits in hash_mem; past that it
  // rescans it for every user (at 5M users the nested or/and ran for minutes). With hash_mem far below the list,
  // each condition must be looked up per user through its table's key, as the correlated EXISTS is.
  const appId = app.app.id;
  for (const cond of [
    c("company", "str_contains", { value: "acme" }),
    c("interests", "list_contains", { value: "api" }),
    c("mrr", "gt", { value: 10 }),
  ]) {
    const filters = { type: "or", filters: [cond, c("$sessions", "gte", { value: 7 })] };
    const where = await compileFilters(parseFilters(filters), { db: server.db, appId, leadsOnly: true });
    const plan = await server.db
      .$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO users (app_id, sessions, props_custom)
          SELECT ${appId}, i % 10, jsonb_build_object('company', 'Acme ' || i, 'interests', jsonb_build_array('api'),
            'mrr', i)
          FROM generate_series(1, 12000) i`;
        await tx.$executeRawUnsafe("ANALYZE users");
        await tx.$executeRawUnsafe("ANALYZE user_prop_values");
        await tx.$executeRawUnsafe("ANALYZE user_prop_items");
        await tx.$executeRawUnsafe("SET LOCAL work_mem = '64kB'");
        await tx.$executeRawUnsafe("SET LOCAL hash_mem_multiplier = 1");
        const rows = await tx.$queryRaw<Record<string, string>[]>(
          Prisma.sql`EXPLAIN SELECT count(*) FROM users u WHERE u.app_id = ${appId} AND ${where}`,
        );
        throw new Plan(rows.map((r) => Object.values(r)[0]).join("\n"));
      })
      .catch((err: unknown) => {
        if (err instanceof Plan) return err.text;
        throw err;
      });
    const label = JSON.stringify(cond);
    expect(plan, label).toMatch(/user_id = u\.id/);
    expect(plan, label).not.toMatch(/Materialize/);
  }
});
