import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { unique } from "../testing/factories";
import type { TestServer } from "../testing/server";
import { complementFor, directLeadCount, leadCountDrift, listLeads, one } from "./testing";

/**
 * `$name` / `$email` known and unknown as a filter's only condition are read from lead_counts' kept counts of the
 * leads with a name and with an email (complement.ts, migration *_lead_presence_counts): the totals must stay those
 * of the compiled condition (NULL unknown; '' and whitespace known), in both API versions (a web-push subscriber is
 * a lead in v2 only), through updates that set and clear them, lead flag flips and deletes.
 */
let s: TestServer;
let a: TestApp;

it.beforeAll(({ server, app }) => {
  s = server;
  a = app;
});

const FILTERS = ["$name", "$email"].flatMap((p) => [one(p, "known"), one(p, "unknown")]);

/** Every presence filter's total (v1 without the v2-only leads) against a direct count and the leads listed; no drift. */
async function expectExact(
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
  it("are read from lead_counts, not counted", async () => {
    for (const filters of FILTERS) {
      const counted = await complementFor(s.db, a.app.id, filters, "v1");
      expect(counted?.sql, JSON.stringify(filters)).toMatch(/FROM lead_counts/);
      expect(counted?.sql).toMatch(/_v1 FROM/);
      expect(counted?.sql).not.toMatch(/FROM users/);
    }
  });

  it("stay exact through NULL, '', whitespace, non-leads, updates, flag flips and deletes", async () => {
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
