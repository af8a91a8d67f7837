import { describe, expect } from "vitest";
import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import type { Db } from "../db/client";
import { it } from "../testing/fixture";
import { makeApp, makeUser, unique } from "../testing/factories";
import { client } from "../testing/http";
import { ok } from "../users/testing";
import { compileFilters } from "./compile";
import { keyedContainsCondition, MAX_KEYS_WALKED } from "./compile-system";
import { parseFilters } from "./filters";
import { listLeads as listLeadsService } from "./list-leads";
import { DAY, listLeads, one, setProps } from "./testing";

/**
 * The system-prop leads indexes (users_leads_country_idx, _city_, _sessions_, _contacted_, _replied_; migration
 * 20261126160000) and the list's covering index (users_leads_seen_idx, with name, email and phone since 20261126161500) must not change answers: each filter gives the same leads with those indexes forced as with no
 * index at all, and the leads the list returns, through the writes that move a user in and out of them.
 */
/**
 * The filters' leads (IDs, sorted) with sequential scans off (the indexes forced) and with every index off; and the
 * forced plan. With a handful of rows every index that has the app first costs about the same, so the forced run
 * can drop some (`drop`) to reach the others: in its transaction, which is rolled back.
 */
async function forcedAndScanned(db: Db, appId: bigint, filters: unknown, drop: string[] = []) {
  const where = await compileFilters(parseFilters(filters), { db, appId, leadsOnly: true });
  const sql = Prisma.sql`SELECT u.id FROM users u WHERE u.app_id = ${appId} AND u.is_lead AND ${where}`;
  const run = (statements: string[]) =>
    db
      .$transaction(async (tx) => {
        for (const x of statements) await tx.$executeRawUnsafe(x);
        const plan = await tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${sql}`);
        const rows = await tx.$queryRaw<{ id: bigint }[]>(sql);
        throw new Done(
          rows.map((r) => r.id).sort((x, y) => (x < y ? -1 : 1)),
          plan.map((r) => Object.values(r)[0]).join("\n"),
        );
      })
      .catch((err: unknown) => {
        if (err instanceof Done) return err;
        throw err;
      });
  const forced = await run(["SET LOCAL enable_seqscan = off", ...drop.map((x) => `DROP INDEX ${x}`)]);
  const scanned = await run(
    ["enable_indexscan", "enable_bitmapscan", "enable_indexonlyscan"].map((x) => `SET LOCAL ${x} = off`),
  );
  return { forced, scanned };
}

/** Thrown to roll a transaction back with its answer. */
class Done extends Error {
  constructor(
    readonly ids: bigint[],
    readonly plan: string,
  ) {
    super("rolled back");
  }
}

describe("system-prop leads indexes", () => {
  it("answer as a scan does, through prop changes and users entering and leaving the leads", async ({
    server: s,
    app: a,
  }) => {
    const ids: Record<string, bigint> = {};
    const now = Date.now();
    const lead = async (key: string, props: Record<string, unknown>) => {
      ids[key] = (await makeUser(s.db, a.app.id, { userId: unique(key) })).id;
      ok(await setProps(a, ids[key], props));
    };
    await lead("sp", { $country: "Brasil", $city: "São Paulo", $sessions: 3 });
    await lead("SP", { $country: "BRASIL", $city: "SÃO PAULO", $sessions: 20 });
    await lead("sf", {
      $country: "United States",
      $city: "San Francisco",
      $sessions: 1,
      $email: "sf@example.test",
      $phone: "+1 415",
    });
    await lead("pct", { $country: "Un%ted", $city: "San_ta", $sessions: 0 });
    // A lead by its name alone (no user ID), so that removing the name removes it from the leads.
    ids.none = (await s.db.user.create({ data: { appId: a.app.id } })).id;
    ok(await setProps(a, ids.none, { $name: "No place" }));
    // Not a lead yet: no identity.
    ids.visitor = (
      await s.db.user.create({ data: { appId: a.app.id, country: "Brasil", city: "Santos" } })
    ).id;
    await s.db.user.update({ where: { id: ids.sp! }, data: { lastContacted: new Date(now - 35 * DAY) } });
    await s.db.user.update({ where: { id: ids.SP! }, data: { lastReply: new Date(now - 200 * DAY) } });

    const cases: [unknown, string[]][] = [
      [one("$country", "str_eq", { value: "brasil" }), ["SP", "sp"]],
      [one("$country", "str_eq", { value: "Un%ted" }), ["pct"]],
      [one("$country", "str_starts", { value: "UN" }), ["pct", "sf"]],
      [one("$country", "str_starts", { value: "un%" }), ["pct"]],
      [one("$city", "str_starts", { value: "são" }), ["SP", "sp"]],
      [one("$city", "str_starts", { value: "san_" }), ["pct"]],
      [one("$city", "str_eq", { value: "san francisco" }), ["sf"]],
      [one("$sessions", "gte", { value: 3 }), ["SP", "sp"]],
      [one("$sessions", "eq", { value: 0 }), ["none", "pct"]],
      [one("$sessions", "range", { value1: 1, value2: 3 }), ["sf", "sp"]],
      [one("$sessions", "lt_or_unknown", { value: 1 }), ["none", "pct"]],
      [one("$last_contacted", "daysmore", { value: 30 }), ["sp"]],
      [one("$last_reply", "daysmore", { value: 100 }), ["SP"]],
      [one("$last_contacted", "unknown"), ["SP", "none", "pct", "sf"]],
      [one("$phone", "known"), ["sf"]],
      [one("$name", "unknown"), ["SP", "pct", "sf", "sp"]],
      [one("$email", "str_ncontains", { value: "EXAMPLE" }), ["SP", "none", "pct", "sp"]],
      [one("$email", "str_contains", { value: "EXAMPLE" }), ["sf"]],
      [one("$email", "str_starts", { value: "SF@" }), ["sf"]],
      [one("$phone", "str_contains", { value: "415" }), ["sf"]],
      [one("$country", "str_neq", { value: "brasil" }), ["none", "pct", "sf"]],
      // Contains on the keyed columns: the keys containing the text, then their entries (compile-system.ts).
      [one("$city", "str_contains", { value: "PAULO" }), ["SP", "sp"]],
      [one("$city", "str_contains", { value: "san" }), ["pct", "sf"]],
      [one("$city", "str_contains", { value: "_" }), ["pct"]],
      [one("$city", "str_contains", { value: "%" }), []],
      [one("$city", "str_ncontains", { value: "san" }), ["SP", "none", "sp"]],
      [one("$country", "str_contains", { value: "ASIL" }), ["SP", "sp"]],
      [one("$country", "str_ncontains", { value: "zz" }), ["SP", "none", "pct", "sf", "sp"]],
    ];
    const check = async (when: string) => {
      for (const [filters, want] of cases) {
        const label = `${when}: ${JSON.stringify(filters)}`;
        // Forced through the list's covering index, then through the others.
        const { forced, scanned } = await forcedAndScanned(s.db, a.app.id, filters);
        expect(forced.ids, label).toEqual(scanned.ids);
        const others = await forcedAndScanned(s.db, a.app.id, filters, ["users_leads_seen_idx"]);
        expect(others.forced.ids, label).toEqual(scanned.ids);
        const got = await listLeads(a, ids, filters);
        expect(got.names.sort(), label).toEqual([...want].sort());
        expect(got.total, label).toBe(want.length);
      }
    };
    await check("created");
    // The country and city conditions are written on the keys of their indexes.
    const plan = async (f: unknown, other: string) =>
      (await forcedAndScanned(s.db, a.app.id, f, ["users_leads_seen_idx", other])).forced.plan;
    expect(await plan(one("$country", "str_eq", { value: "brasil" }), "users_leads_city_idx")).toMatch(
      /users_leads_country_idx.*\n.*Index Cond.*lower\(country\)/,
    );
    expect(await plan(one("$city", "str_eq", { value: "santos" }), "users_leads_country_idx")).toMatch(
      /users_leads_city_idx.*\n.*Index Cond.*lower\(city\)/,
    );
    expect(await plan(one("$city", "str_starts", { value: "sa" }), "users_leads_country_idx")).toMatch(
      /users_leads_city_idx.*\n.*Index Cond.*lower\(city\)/,
    );

    // Moves: a lead's country and city change, one lead's name goes (no longer a lead), the visitor becomes one.
    ok(await setProps(a, ids.sf!, { $country: "brasil", $city: "Santos", $sessions: 5, $phone: null }));
    ok(await setProps(a, ids.visitor, { $email: "v@EXAMPLE.test" }));
    ok(await setProps(a, ids.none, { $name: null }));
    ok(await setProps(a, ids.visitor, { $name: "Now known" }));
    await s.db.user.update({ where: { id: ids.sp! }, data: { lastContacted: null } });
    cases.splice(
      0,
      cases.length,
      [one("$country", "str_eq", { value: "BRASIL" }), ["SP", "sf", "sp", "visitor"]],
      [one("$country", "str_starts", { value: "un" }), ["pct"]],
      [one("$city", "str_eq", { value: "santos" }), ["sf", "visitor"]],
      [one("$city", "str_starts", { value: "san" }), ["pct", "sf", "visitor"]],
      [one("$sessions", "gte", { value: 3 }), ["SP", "sf", "sp"]],
      [one("$sessions", "eq", { value: 0 }), ["pct", "visitor"]],
      [one("$last_contacted", "daysmore", { value: 30 }), []],
      [one("$last_contacted", "unknown"), ["SP", "pct", "sf", "sp", "visitor"]],
      [one("$phone", "known"), []],
      [one("$name", "unknown"), ["SP", "pct", "sf", "sp"]],
      [one("$email", "str_ncontains", { value: "example" }), ["SP", "pct", "sp"]],
      [one("$email", "str_contains", { value: "example" }), ["sf", "visitor"]],
      [one("$phone", "str_contains", { value: "415" }), []],
      [one("$country", "str_neq", { value: "brasil" }), ["pct"]],
      // The visitor's city was no lead's key before: it is now.
      [one("$city", "str_contains", { value: "tos" }), ["sf", "visitor"]],
      [one("$city", "str_ncontains", { value: "san" }), ["SP", "sp"]],
    );
    await check("after the writes");
  });

  it("contains on a column of more keys than the walk takes: the trigram form, the same answers", async ({
    server: s,
    app: a,
  }) => {
    const other = await makeApp(s.db);
    const n = MAX_KEYS_WALKED + 4;
    await s.db.user.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        appId: other.app.id,
        userId: unique("k"),
        city: `City ${i}`,
      })),
    });
    const contains = one("$city", "str_contains", { value: "ty 25" });
    const [only] = parseFilters(contains).items;
    expect(only?.kind === "cond" && (await keyedContainsCondition(s.db, other.app.id, only))).toBeNull();
    const want = Array.from({ length: n }, (_, i) => `City ${i}`).filter((c) => c.includes("ty 25"));
    const { forced, scanned } = await forcedAndScanned(s.db, other.app.id, contains);
    expect(forced.ids).toEqual(scanned.ids);
    expect(scanned.ids).toHaveLength(want.length);
    const api = await client(s, other.token).get(`/api/apps/${other.app.id}/users`, { filters: contains });
    expect(ok<{ total: number }>(api).total).toBe(want.length);
    // Within the walk's limit the keys serve: the app of the test above.
    const [near] = parseFilters(one("$city", "str_contains", { value: "paulo" })).items;
    expect(near?.kind === "cond" && (await keyedContainsCondition(s.db, a.app.id, near))).not.toBeNull();
  });

  it("walks the keys once for a page and its complement's count", async ({ server: s }) => {
    const other = await makeApp(s.db);
    const cities = ["Santos", "Santa Fe", "Lyon", null];
    await s.db.user.createMany({
      data: cities.map((city) => ({ appId: other.app.id, userId: unique("w"), city })),
    });
    let walks = 0;
    // The service's own database, each statement counted on its way: the key walk is the only recursive one.
    const db = new Proxy(s.db, {
      get(target, key, receiver) {
        const v: unknown = Reflect.get(target, key, receiver);
        if (key !== "$queryRaw" || typeof v !== "function") return v;
        return (q: Prisma.Sql, ...rest: unknown[]) => {
          if (q.sql.includes("WITH RECURSIVE")) walks++;
          return (v as (...a: unknown[]) => unknown).call(target, q, ...rest);
        };
      },
    });
    const ctx: Ctx = {
      db,
      actor: { kind: "admin", adminId: 0n, sessionId: 0n, appIds: [other.app.id] },
      appId: other.app.id,
      requestId: "key walks",
    };
    const filters = one("$city", "str_ncontains", { value: "SANT" });
    const page = await listLeadsService(ctx, { appId: other.app.id, rule: "v2", filters });
    expect(page.users.map((u) => u.city ?? null).sort()).toEqual(["Lyon", null]);
    expect(page.total).toBe(2);
    expect(walks).toBe(1);
  });
});

it("tests an email or phone text condition's presence where the column's own btree cannot answer it", async ({
  server: s,
  app: a,
}) => {
  // As `email IS NOT NULL` the planner ANDed the trigram bitmap with the (app_id, email) btree, every user with an
  // email (compile-system.ts textPresence). Over every user (no leads index applies), with the trigram index gone
  // and scans off, that btree is the narrowest choice for the old form: the condition must leave it none.
  for (const [filters, btree] of [
    [one("$email", "str_contains", { value: "xam" }), "users_app_id_email_idx"],
    [one("$phone", "str_starts", { value: "+1" }), "users_app_id_phone_idx"],
  ] as const) {
    const where = await compileFilters(parseFilters(filters), { db: s.db, appId: a.app.id, leadsOnly: true });
    const plan = await s.db
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
        await tx.$executeRawUnsafe("DROP INDEX users_search_trgm_idx");
        // Statistics where few users have either (as at 1M: an email for 32%), so that the btree's bound counts.
        await tx.$executeRaw`INSERT INTO users (app_id, email, phone)
          SELECT ${a.app.id}, CASE WHEN i % 50 = 0 THEN 'u' || i || '@example.test' END,
            CASE WHEN i % 50 = 1 THEN '+1 ' || i END
          FROM generate_series(1, 5000) i`;
        await tx.$executeRawUnsafe("ANALYZE users");
        const rows = await tx.$queryRaw<Record<string, string>[]>(
          Prisma.sql`EXPLAIN SELECT u.id FROM users u WHERE u.app_id = ${a.app.id} AND ${where}`,
        );
        throw new Done([], rows.map((r) => Object.values(r)[0]).join("\n"));
      })
      .catch((err: unknown) => {
        if (err instanceof Done) return err.plan;
        throw err;
      });
    expect(plan, JSON.stringify(filters)).not.toMatch(new RegExp(`${btree}.*\\n.*Index Cond.*IS NOT NULL`));
  }
});
