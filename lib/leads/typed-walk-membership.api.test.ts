import { expect } from "vitest";
import { Prisma } from "../db/generated/client";
import { it } from "../testing/fixture";
import { unique } from "../testing/factories";
import { compileFilters } from "./compile";
import { parseFilters, type Condition } from "./filters";
import { leadRows } from "./lead-rows";
import { condition as c, readRolledBack } from "./testing";
import { oneConditionWalk, severalConditionsWalk } from "./typed-walk";

/**
 * The walk (typed-walk.ts) tests each lead it reads, in the leads index's order, against a side condition's rows.
 * Listed as `u.id IN (…)`, PostgreSQL hashed them only while they fit in hash_mem, and otherwise rescanned the whole
 * list for every lead walked. With hash_mem far below the rows, the plan must still walk the index in order (no
 * Sort) and look each lead up by its ID (`user_id = u.id`), never materialise the list; with room, it hashes them.
 */
it("the walk looks each lead up in a side condition's rows, hashed when they fit, never rescanning a list", async ({
  server,
  app,
}) => {
  const appId = app.app.id;
  const tag = unique("walked");
  const now = new Date();
  const seed = async (tx: Prisma.TransactionClient) => {
    await tx.$executeRaw`INSERT INTO users (app_id, user_id, last_seen, props_custom)
      SELECT ${appId}, ${unique("m")} || '-' || i, now() - i * interval '1 minute',
        jsonb_build_object('plan', CASE WHEN i % 3 = 0 THEN 'free' ELSE 'pro' END,
          'interests', jsonb_build_array('api'))
      FROM generate_series(1, 12000) i`;
    await tx.$executeRaw`INSERT INTO user_tags (user_id, app_id, tag)
      SELECT id, app_id, ${tag} FROM users WHERE app_id = ${appId} AND id % 2 = 0`;
    for (const t of ["users", "user_tags", "user_prop_values", "user_prop_items"])
      await tx.$executeRawUnsafe(`ANALYZE ${t}`);
  };
  const walked = (member: Prisma.Sql) =>
    Prisma.sql`SELECT u.id FROM users u WHERE u.app_id = ${appId} AND u.is_lead AND ${member}
      ORDER BY u.last_seen DESC NULLS LAST, u.id DESC LIMIT 20 OFFSET 1000`;
  const leads = Prisma.sql`12000`;
  const one = (cond: ReturnType<typeof c>) => {
    const parsed = parseFilters({ type: "and", filters: [cond] }).items[0] as Condition;
    const rows = leadRows(parsed, appId, now);
    if (!rows) throw new Error(`${JSON.stringify(cond)} has no side rows`);
    return oneConditionWalk(rows, leads).member;
  };
  const members: [string, Prisma.Sql][] = [
    ["a tag", one(c("$tag", "tag", { value: tag }))],
    ["a custom prop", one(c("plan", "str_eq", { value: "pro" }))],
    ["a custom prop's absence", one(c("plan", "str_neq", { value: "pro" }))],
    ["a list item", one(c("interests", "list_contains", { value: "api" }))],
  ];
  const several = await severalConditionsWalk(appId, now, (membership) =>
    compileFilters(
      parseFilters({
        type: "and",
        filters: [c("plan", "str_eq", { value: "pro" }), c("$tag", "tag", { value: tag })],
      }),
      { db: server.db, appId, leadsOnly: true, membership },
    ),
  );
  if (!several) throw new Error("a custom prop and a tag should be walked");
  members.push(["a custom prop and a tag", several.member]);

  // One seed for every plan: each costs seconds on the embedded database.
  const plans = await readRolledBack(server.db, async (tx, explain) => {
    await seed(tx);
    const roomy: string[] = [];
    for (const [, member] of members) roomy.push(await explain(walked(member)));
    await tx.$executeRawUnsafe("SET LOCAL work_mem = '64kB'");
    await tx.$executeRawUnsafe("SET LOCAL hash_mem_multiplier = 1");
    const tight: string[] = [];
    for (const [, member] of members) tight.push(await explain(walked(member)));
    return { roomy, tight };
  });
  members.forEach(([label], i) => {
    const tight = plans.tight[i] ?? "";
    expect(tight, label).toMatch(/users_leads_seen_idx/);
    expect(tight, label).not.toMatch(/Sort|Materialize|hashed/);
    expect(tight, label).toMatch(/user_id = u\.id/);

    const roomy = plans.roomy[i] ?? "";
    expect(roomy, label).toMatch(/users_leads_seen_idx/);
    expect(roomy, label).not.toMatch(/Sort|Materialize/);
    expect(roomy, label).toMatch(/hashed SubPlan/);
  });
});
