import { describe, expect } from "vitest";
import { Prisma } from "../db/generated/client";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeUser, unique } from "../testing/factories";
import type { TestServer } from "../testing/server";
import { bootTestVisitor } from "../messenger/testing";
import { userHashOf } from "../messenger/identity";
import { ok } from "../users/testing";
import { compileFilters } from "./compile";
import { parseFilters } from "./filters";
import { DAY, listLeads, one, propValueDrift, setProps, importUsersCsv } from "./testing";

/**
 * Custom numbers, dates, texts and presence are read from user_prop_values (kept by a users trigger): every answer must
 * equal the one read from the users' JSON, and the rows must follow every write that changes props_custom.
 */
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** The leads list's names among `ids`, after checking its total against a count of the JSON form. */
async function names(
  s: TestServer,
  a: TestApp,
  ids: Record<string, bigint>,
  filters: unknown,
): Promise<string[]> {
  const listed = await listLeads(a, ids, filters, { limit: 50 });
  const where = await compileFilters(parseFilters(filters), {
    db: s.db,
    appId: a.app.id,
    typedProps: false,
  });
  const [json] = await s.db.$queryRaw<{ n: number }[]>(
    Prisma.sql`SELECT count(*)::int AS n FROM users u WHERE u.app_id = ${a.app.id} AND u.is_lead AND ${where}`,
  );
  expect(listed.total, JSON.stringify(filters)).toBe(json!.n);
  return listed.names.filter((n): n is string => n !== undefined).sort();
}

describe("custom numbers, dates, texts and presence through user_prop_values", () => {
  it("answer as the JSON does, for every type of value, through creates, changes and deletes", async ({
    server: s,
    app: a,
  }) => {
    const now = Date.now();
    const ids: Record<string, bigint> = {};
    const user = async (key: string, props: Record<string, unknown>) => {
      ids[key] = (await makeUser(s.db, a.app.id, { userId: unique(key) })).id;
      if (Object.keys(props).length) ok(await setProps(a, ids[key], props));
    };
    await user("low", { mrr: 10, signed_up: "2024-01-10T00:00:00" });
    await user("high", { mrr: 60.5, signed_up: iso(now - 2 * DAY) });
    await user("texts", { mrr: "sixty", signed_up: "yesterday" });
    await user("shapes", {});
    // Values the props API would refuse or coerce, written as they may already be stored.
    await s.db.user.update({
      where: { id: ids.shapes },
      data: { propsCustom: { mrr: [70], signed_up: { at: iso(now) }, flag: true, gone: null } },
    });
    await user("none", {});
    const all = Object.keys(ids).sort();
    const q = (type: string, value: unknown = {}, prop = "mrr") => names(s, a, ids, one(prop, type, value));

    expect(await q("gt", { value: 50 })).toEqual(["high"]);
    expect(await q("gte", { value: 10 })).toEqual(["high", "low"]);
    expect(await q("lt", { value: 60.5 })).toEqual(["low"]);
    expect(await q("lte", { value: 60.5 })).toEqual(["high", "low"]);
    expect(await q("eq", { value: 10 })).toEqual(["low"]);
    expect(await q("neq", { value: 10 })).toEqual(all.filter((n) => n !== "low"));
    expect(await q("gt_or_unknown", { value: 20 })).toEqual(["high", "none", "shapes", "texts"]);
    expect(await q("lt_or_unknown", { value: 20 })).toEqual(["low", "none", "shapes", "texts"]);
    expect(await q("range", { value1: 70, value2: 10 })).toEqual(["high", "low"]);
    expect(await q("known")).toEqual(["high", "low", "shapes", "texts"]);
    expect(await q("unknown")).toEqual(["none"]);
    expect(await q("daysless", { value: 7 }, "signed_up")).toEqual(["high"]);
    expect(await q("daysmore", { value: 7 }, "signed_up")).toEqual(["low"]);
    expect(await q("date_lt", { value: iso(now - 30 * DAY) }, "signed_up")).toEqual(["low"]);
    expect(await q("date_gt", { value: "2024-01-10T00:00:00" }, "signed_up")).toEqual(["high"]);
    expect(await q("date_range", { value1: iso(now), value2: "2024-01-10T00:00:00" }, "signed_up")).toEqual([
      "high",
      "low",
    ]);
    expect(await q("known", {}, "flag")).toEqual(["shapes"]);
    // Text: strings, numbers and booleans as text, case-insensitive; a list or an object is no text.
    const t = (type: string, value?: string) => q(type, value === undefined ? {} : { value }, "mrr");
    expect(await t("str_eq", "SIXTY")).toEqual(["texts"]);
    expect(await t("str_eq", "60.5")).toEqual(["high"]);
    expect(await t("str_neq", "sixty")).toEqual(all.filter((n) => n !== "texts"));
    expect(await t("str_starts", "Si")).toEqual(["texts"]);
    expect(await t("str_starts", "")).toEqual(["high", "low", "texts"]);
    expect(await t("str_contains", "0")).toEqual(["high", "low"]);
    expect(await t("str_contains", "%")).toEqual([]);
    expect(await t("str_ncontains", "x")).toEqual(all.filter((n) => n !== "texts"));
    expect(await q("str_eq", { value: "TRUE" }, "flag")).toEqual(["shapes"]);
    expect(await q("str_contains", { value: "t" }, "signed_up")).toEqual(["high", "low", "texts"]);
    // Booleans: a JSON true or false, not the text "true".
    // (The props API would make "true" a boolean: written as it may already be stored.)
    await s.db
      .$executeRaw`UPDATE users SET props_custom = props_custom || '{"flag": "true"}' WHERE id = ${ids.texts}`;
    ok(await setProps(a, ids.low!, { flag: false }));
    expect(await q("bool_true", {}, "flag")).toEqual(["shapes"]);
    expect(await q("bool_false", {}, "flag")).toEqual(["low"]);
    expect(await q("str_eq", { value: "true" }, "flag")).toEqual(["shapes", "texts"]);
    // Nested under an `or` with a JSON-read condition.
    expect(
      await names(s, a, ids, {
        type: "or",
        filters: [
          { property_name: "mrr", type: "gt", value: { value: 50 } },
          { property_name: "signed_up", type: "unknown", value: {} },
          { property_name: "flag", type: "bool_true", value: {} },
        ],
      }),
    ).toEqual(["high", "none", "shapes"]);

    // Changes: a value replaced, one removed, one that changes type, and one added.
    ok(await setProps(a, ids.low!, { mrr: 100 }));
    ok(await setProps(a, ids.high!, { mrr: null }));
    ok(await setProps(a, ids.texts!, { mrr: 55 }));
    ok(await setProps(a, ids.none!, { signed_up: iso(now - DAY) }));
    expect(await q("gt", { value: 50 })).toEqual(["low", "texts"]);
    expect(await q("unknown")).toEqual(["high", "none"]);
    expect(await q("daysless", { value: 7 }, "signed_up")).toEqual(["high", "none"]);
    expect(await propValueDrift(s.db)).toEqual([]);

    // A visitor's props count once it becomes a lead (an email), and no longer when it stops being one.
    ids.visitor = (await s.db.user.create({ data: { appId: a.app.id, propsCustom: { mrr: 75 } } })).id;
    expect(await q("gt", { value: 50 })).toEqual(["low", "texts"]);
    await s.db.user.update({ where: { id: ids.visitor }, data: { email: `${unique("v")}@example.com` } });
    expect(await q("gt", { value: 50 })).toEqual(["low", "texts", "visitor"]);
    expect(await q("str_eq", { value: "75" })).toEqual(["visitor"]);
    expect(await propValueDrift(s.db)).toEqual([]);
    await s.db.user.update({ where: { id: ids.visitor }, data: { email: null } });
    expect(await q("gt", { value: 50 })).toEqual(["low", "texts"]);
    expect(await q("str_eq", { value: "75" })).toEqual([]);
    expect(await propValueDrift(s.db)).toEqual([]);
  });

  it("lists through user_prop_items: as `@>` with one string, through changes and lead transitions", async ({
    server: s,
    app: a,
  }) => {
    const ids: Record<string, bigint> = {};
    const key = unique("tags").replace(/[^a-z0-9_]/gi, "_");
    const user = async (name: string, props: Record<string, unknown> | null) => {
      ids[name] = (await makeUser(s.db, a.app.id, { userId: unique(name) })).id;
      // Shapes the props API refuses, written as they may already be stored.
      if (props)
        await s.db.user.update({
          where: { id: ids[name] },
          data: { propsCustom: props as Prisma.InputJsonValue },
        });
    };
    await user("both", { [key]: ["api", "crm"] });
    await user("twice", { [key]: ["api", "api"] });
    await user("upper", { [key]: ["API"] });
    await user("scalar", { [key]: "api" });
    await user("number", { [key]: [7, "7x"] });
    await user("nested", { [key]: [["api"]] });
    await user("empty", { [key]: [] });
    await user("none", null);
    const all = Object.keys(ids).sort();
    const has = (item: string) => names(s, a, ids, one(key, "list_contains", { value: item }));
    const lacks = (item: string) => names(s, a, ids, one(key, "list_ncontains", { value: item }));
    expect(await has("api")).toEqual(["both", "twice"]);
    expect(await lacks("api")).toEqual(all.filter((n) => n !== "both" && n !== "twice"));
    expect(await has("API")).toEqual(["upper"]);
    expect(await has("7")).toEqual([]);
    expect(await has("7x")).toEqual(["number"]);
    expect(await propValueDrift(s.db)).toEqual([]);

    // Changes through the props API: a list replaced, one removed, one made a text, one added.
    ok(await setProps(a, ids.both!, { [key]: ["crm"] }));
    ok(await setProps(a, ids.twice!, { [key]: null }));
    ok(await setProps(a, ids.upper!, { [key]: "api" }));
    ok(await setProps(a, ids.none!, { [key]: ["api", "x"] }));
    expect(await has("api")).toEqual(["none"]);
    expect(await has("crm")).toEqual(["both"]);
    expect(await lacks("api")).toEqual(all.filter((n) => n !== "none"));
    expect(await propValueDrift(s.db)).toEqual([]);

    // A visitor's list counts once it becomes a lead, and no longer when it stops being one.
    ids.visitor = (await s.db.user.create({ data: { appId: a.app.id, propsCustom: { [key]: ["api"] } } })).id;
    expect(await has("api")).toEqual(["none"]);
    await s.db.user.update({ where: { id: ids.visitor }, data: { email: `${unique("v")}@example.com` } });
    expect(await has("api")).toEqual(["none", "visitor"]);
    expect(await propValueDrift(s.db)).toEqual([]);
    await s.db.user.update({ where: { id: ids.visitor }, data: { email: null } });
    expect(await has("api")).toEqual(["none"]);
    expect(await propValueDrift(s.db)).toEqual([]);
  });

  it("follow imports, merges, concurrent updates and deletes", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id, { userId: unique("known") });
    // Concurrent writes to one user's props, to the same key and to others.
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => setProps(a, u.id, { mrr: i, [`k${i % 4}`]: i * 1.5 })),
    );
    expect(await propValueDrift(s.db)).toEqual([]);
    // A visitor with props of its own logs in as the user: merged into it, taking the props it lacks.
    const visitor = await bootTestVisitor(s, a);
    const vid = BigInt(visitor.boot.visitor.id);
    ok(await setProps(a, vid, { mrr: 999, visits: 3, seen_at: "2025-01-01T00:00:00" }));
    const settings = await s.db.messengerSettings.findUniqueOrThrow({ where: { appId: a.app.id } });
    const hash = userHashOf(settings.identitySecret, u.userId!);
    ok(await visitor.api.postJson("/api/v2/messenger/auth", { user_id: u.userId, user_hash: hash }));
    expect(await s.db.user.findUnique({ where: { id: vid } })).toBeNull();
    const rows = await s.db.userPropValue.findMany({ where: { userId: u.id }, orderBy: { key: "asc" } });
    expect(rows.map((r) => r.key)).toEqual(["k0", "k1", "k2", "k3", "mrr", "seen_at", "visits"]);
    expect(await propValueDrift(s.db)).toEqual([]);
    // An import into another app creates and updates users with custom props.
    const other = await makeApp(s.db);
    const importCsv = (csv: string) => importUsersCsv(s, other.token, csv);
    expect(await importCsv("$user_id,mrr,plan\nimp-a,12,pro\nimp-b,30,free\n")).toBe("done");
    expect(await importCsv("$user_id,mrr\nimp-a,45\n")).toBe("done");
    expect(await s.db.userPropValue.count({ where: { appId: other.app.id, key: "mrr" } })).toBe(2);
    expect(await propValueDrift(s.db)).toEqual([]);
    // Deletes: a user, then a whole app with its users.
    await s.db.user.delete({ where: { id: u.id } });
    expect(await s.db.userPropValue.count({ where: { userId: u.id } })).toBe(0);
    await s.db.app.delete({ where: { id: other.app.id } });
    expect(await s.db.userPropValue.count({ where: { appId: other.app.id } })).toBe(0);
    expect(await propValueDrift(s.db)).toEqual([]);
  });
});
