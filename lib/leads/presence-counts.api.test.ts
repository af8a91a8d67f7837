import { describe, expect } from "vitest";
import { Prisma } from "../db/generated/client";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, unique } from "../testing/factories";
import type { TestServer } from "../testing/server";
import { complementFor, directLeadCount, leadCountDrift, listLeads, one, propValueDrift } from "./testing";

/**
 * `$name` / `$email` known and unknown as a filter's only condition are read from lead_counts' kept counts of the
 * leads with a name and with an email (complement.ts, migration *_lead_presence_counts): the totals must stay those
 * of the compiled condition (NULL unknown; '' and whitespace known), in both API versions (a web-push subscriber is
 * a lead in v2 only), through updates that set and clear them, lead flag flips and deletes.
 */
const FILTERS = ["$name", "$email"].flatMap((p) => [one(p, "known"), one(p, "unknown")]);

/** Every presence filter's total (v1 without the v2-only leads) against a direct count and the leads listed; no drift. */
async function expectExact(
  s: TestServer,
  a: TestApp,
  ids: Record<string, bigint>,
  want: Record<string, string[]>,
  step: string,
  v2Only: string[] = [],
) {
  for (const filters of FILTERS) {
    const [c] = filters.filters;
    const key = `${c!.property_name} ${c!.type}`;
    const label = `${step}: ${key}`;
    const got = await listLeads(a, ids, filters, { limit: 50 });
    expect(got.names.sort(), label).toEqual([...want[key]!].sort());
    expect(got.total, label).toBe(want[key]!.length);
    expect(got.total, label).toBe(await directLeadCount(s.db, a.app.id, filters, "is_lead"));
    const v1 = await listLeads(a, ids, filters, { limit: 50 }, "v1/");
    expect(v1.total, `v1 ${label}`).toBe(want[key]!.filter((k) => !v2Only.includes(k)).length);
    expect(v1.total, `v1 ${label}`).toBe(await directLeadCount(s.db, a.app.id, filters, "is_lead_v1"));
  }
  expect(await leadCountDrift(s.db), step).toEqual([]);
}

describe("$name / $email known and unknown totals, from the kept counts", () => {
  it("are read from lead_counts, not counted", async ({ server: s, app: a }) => {
    for (const filters of FILTERS) {
      const counted = await complementFor(s.db, a.app.id, filters, "v1");
      expect(counted?.sql, JSON.stringify(filters)).toMatch(/FROM lead_counts/);
      expect(counted?.sql).toMatch(/_v1 FROM/);
      expect(counted?.sql).not.toMatch(/FROM users/);
    }
  });

  it("stay exact through NULL, '', whitespace, non-leads, updates, flag flips and deletes", async ({
    server: s,
    app: a,
  }) => {
    const ids: Record<string, bigint> = {};
    const user = async (key: string, data: Record<string, unknown>) => {
      ids[key] = (await s.db.user.create({ data: { appId: a.app.id, ...data } })).id;
    };
    const set = (key: string, data: Record<string, unknown>) =>
      s.db.user.update({ where: { id: ids[key]! }, data });
    await user("named", { name: "Ada", email: "ada@example.test" });
    await user("blank", { name: "", email: "" });
    await user("spaces", { name: "  ", email: " " });
    await user("byId", { userId: unique("id") });
    // A web-push subscriber with nothing else: a lead in v2, not in v1.
    await user("push", { webpushSubscribed: true });
    // Not leads: no user ID, name, email, phone, conversation or subscription.
    await user("ghost", { country: "Chile" });
    await user("ghost2", {});
    await expectExact(
      s,
      a,
      ids,
      {
        "$name known": ["named", "blank", "spaces"],
        "$name unknown": ["byId", "push"],
        "$email known": ["named", "blank", "spaces"],
        "$email unknown": ["byId", "push"],
      },
      "created",
      ["push"],
    );

    // A lead by user ID gives a name (the lead flags stay as they were); a named lead's email is cleared.
    await set("byId", { name: "Bo" });
    await set("named", { email: null });
    // The web-push lead gives an email: now a lead in v1 too; a ghost becomes a lead by its name.
    await set("push", { email: "p@example.test" });
    await set("ghost", { name: "" });
    await expectExact(
      s,
      a,
      ids,
      {
        "$name known": ["named", "blank", "spaces", "byId", "ghost"],
        "$name unknown": ["push"],
        "$email known": ["blank", "spaces", "push"],
        "$email unknown": ["named", "byId", "ghost"],
      },
      "set and cleared",
    );

    // Flag flips: the ghost's name goes (no longer a lead), the push lead's email goes and it unsubscribes (no
    // longer a lead in either version), and a ghost subscribes with an email at once.
    await set("ghost", { name: null });
    await set("push", { email: null, webpushSubscribed: false });
    await set("ghost2", { webpushSubscribed: true, email: "g@example.test" });
    // Writes that leave the name and email alone (the heartbeat's last_seen, a value changed to another).
    await set("named", { lastSeen: new Date(), name: "Ada L." });
    await expectExact(
      s,
      a,
      ids,
      {
        "$name known": ["named", "blank", "spaces", "byId"],
        "$name unknown": ["ghost2"],
        "$email known": ["blank", "spaces", "ghost2"],
        "$email unknown": ["named", "byId"],
      },
      "flags flipped",
    );

    await s.db.user.delete({ where: { id: ids.blank! } });
    await s.db.user.delete({ where: { id: ids.ghost2! } });
    await s.db.user.delete({ where: { id: ids.ghost! } });
    await expectExact(
      s,
      a,
      ids,
      {
        "$name known": ["named", "spaces", "byId"],
        "$name unknown": [],
        "$email known": ["spaces"],
        "$email unknown": ["named", "byId"],
      },
      "deleted",
    );
  });
});

describe("one INSERT of many users (an import's batch)", () => {
  // The AFTER INSERT triggers run once per statement over its rows (migration *_users_insert_statement_triggers).
  it("is counted per app: leads, names, emails, the leads' quarters and the typed prop values", async ({
    server: s,
    app: a,
  }) => {
    const other = await makeApp(s.db);
    const taken = unique("taken");
    await s.db.user.create({ data: { appId: other.app.id, userId: taken, name: "Kept" } });
    const rows = [
      [a.app.id, unique("u"), "Ada", "ada@example.test", false, { mrr: 12, since: "2025-01-02T03:04:05" }],
      [a.app.id, unique("u"), "", null, false, { plan: "free" }],
      [a.app.id, null, null, "e@example.test", false, {}],
      [a.app.id, null, null, null, true, { mrr: 1.5 }], // a v2-only lead (web push)
      [a.app.id, null, null, null, false, { mrr: 7 }], // not a lead
      [other.app.id, unique("u"), "Bo", null, false, { mrr: 3 }],
      [other.app.id, taken, "Dup", "dup@example.test", false, { mrr: 4 }], // conflicts: not inserted
    ] as const;
    const values = rows.map(
      ([app, userId, name, email, push, props]) =>
        Prisma.sql`(${app}::bigint, ${userId}::text, ${name}::text, ${email}::text, ${push}::boolean,
          ${JSON.stringify(props)}::jsonb, now() - ${`${rows.length} months`}::interval)`,
    );
    const inserted = await s.db.$executeRaw(Prisma.sql`
      INSERT INTO users (app_id, user_id, name, email, webpush_subscribed, props_custom, created)
      VALUES ${Prisma.join(values)}
      ON CONFLICT (app_id, user_id) DO NOTHING`);
    expect(inserted).toBe(rows.length - 1);
    // An INSERT of no rows runs the statement triggers over an empty table.
    await s.db.$executeRaw`INSERT INTO users (app_id) SELECT ${a.app.id} WHERE false`;
    expect(await leadCountDrift(s.db)).toEqual([]);
    expect(await propValueDrift(s.db)).toEqual([]);
    const quarterDrift = await s.db.$queryRaw<{ app_id: bigint }[]>`
      SELECT coalesce(q.app_id, u.app_id) AS app_id FROM lead_quarters q
      FULL JOIN (
        SELECT app_id, relay_quarter(created) AS at, count(*)::int AS leads FROM users WHERE is_lead GROUP BY 1, 2
      ) u ON u.app_id = q.app_id AND u.at = q.at
      WHERE coalesce(q.leads, 0) <> coalesce(u.leads, 0)`;
    expect(quarterDrift).toEqual([]);
    const [kept] = await s.db.$queryRaw<{ leads: number }[]>`
      SELECT leads FROM lead_counts WHERE app_id = ${other.app.id}`;
    expect(kept?.leads).toBe(2);
  });
});
