import { expect } from "vitest";
import { Prisma } from "../db/generated/client";
import { it } from "../testing/fixture";
import { compileFilters } from "./compile";
import { parseFilters } from "./filters";
import { condition as c, readRolledBack } from "./testing";

it("looks a side table's rows up by the lead under an or, never scanning a list too large to hash once per lead", async ({
  server,
  app,
}) => {
  // As `u.id IN (…)` under an `or`, PostgreSQL hashes the list only while it fits in hash_mem; past that it
  // rescans it for every user (at 5M users the nested or/and ran for minutes). With hash_mem far below the list,
  // each condition must be looked up per user through its table's key, as the correlated EXISTS is.
  const appId = app.app.id;
  const conds = [
    c("company", "str_contains", { value: "acme" }),
    c("interests", "list_contains", { value: "api" }),
    c("mrr", "gt", { value: 10 }),
  ];
  const wheres: Prisma.Sql[] = [];
  for (const cond of conds) {
    const filters = { type: "or", filters: [cond, c("$sessions", "gte", { value: 7 })] };
    wheres.push(await compileFilters(parseFilters(filters), { db: server.db, appId, leadsOnly: true }));
  }
  // One seed for every plan: each costs seconds on the embedded database.
  const plans = await readRolledBack(server.db, async (tx, explain) => {
    await tx.$executeRaw`INSERT INTO users (app_id, sessions, props_custom)
      SELECT ${appId}, i % 10, jsonb_build_object('company', 'Acme ' || i, 'interests', jsonb_build_array('api'),
        'mrr', i)
      FROM generate_series(1, 12000) i`;
    for (const t of ["users", "user_prop_values", "user_prop_items"])
      await tx.$executeRawUnsafe(`ANALYZE ${t}`);
    await tx.$executeRawUnsafe("SET LOCAL work_mem = '64kB'");
    await tx.$executeRawUnsafe("SET LOCAL hash_mem_multiplier = 1");
    const out: string[] = [];
    for (const where of wheres)
      out.push(
        await explain(Prisma.sql`SELECT count(*) FROM users u WHERE u.app_id = ${appId} AND ${where}`),
      );
    return out;
  });
  conds.forEach((cond, i) => {
    const label = JSON.stringify(cond);
    expect(plans[i], label).toMatch(/user_id = u\.id/);
    expect(plans[i], label).not.toMatch(/Materialize/);
  });
});
