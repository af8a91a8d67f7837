import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeApp, makeUser, unique } from "../testing/factories";
import { bootTestVisitor } from "../messenger/testing";
import { userHashOf } from "../messenger/identity";
import { ok } from "../users/testing";
import { leadCountDrift, listLeads, one, setProps, summaryDrift, importUsersCsv } from "./testing";

/**
 * What the leads filters' indexes and kept structures must not change: answers. Text conditions through trigrams
 * (wildcards taken literally, one custom prop's text never matching through another's), and the kept lead counts
 * and event summaries exact through every write that changes them.
 */
describe("text conditions through the trigram indexes", () => {
  it("take %, _ and \\ literally, and match one custom prop's text, not another's", async ({
    server: s,
    app: a,
  }) => {
    const ids: Record<string, bigint> = {};
    const user = async (key: string, props: Record<string, unknown>) => {
      ids[key] = (await makeUser(s.db, a.app.id, { userId: unique(key) })).id;
      ok(await setProps(a, ids[key], props));
    };
    await user("pct", { $city: "Zone 50% Off", offer: "50% off", note: "x" });
    await user("five", { $city: "Zone 500 Off", offer: "500 off", note: "50% off elsewhere" });
    await user("under", { $city: "a_b town", offer: "a_b", note: "" });
    await user("axb", { $city: "axb town", offer: "axb", note: "back\\slash" });
    await user("num", { offer: 1250, note: true });
    const names = async (f: unknown) => (await listLeads(a, ids, f)).names.sort();
    expect(await names(one("offer", "str_contains", { value: "50%" }))).toEqual(["pct"]);
    expect(await names(one("$city", "str_contains", { value: "50%" }))).toEqual(["pct"]);
    expect(await names(one("offer", "str_contains", { value: "a_b" }))).toEqual(["under"]);
    expect(await names(one("$city", "str_starts", { value: "A_B" }))).toEqual(["under"]);
    expect(await names(one("$city", "str_eq", { value: "a_b TOWN" }))).toEqual(["under"]);
    expect(await names(one("note", "str_contains", { value: "\\sla" }))).toEqual(["axb"]);
    expect(await names(one("offer", "str_starts", { value: "50" }))).toEqual(["five", "pct"]);
    expect(await names(one("offer", "str_eq", { value: "500 OFF" }))).toEqual(["five"]);
    expect(await names(one("offer", "str_contains", { value: "25" }))).toEqual(["num"]);
    expect(await names(one("note", "str_eq", { value: "TRUE" }))).toEqual(["num"]);
    expect(await names(one("offer", "str_ncontains", { value: "50%" }))).toEqual([
      "axb",
      "five",
      "num",
      "under",
    ]);
  });
});

describe("kept counts", () => {
  it("keeps each app's lead count exact through creates, props, conversations, imports, merges and deletes", async ({
    server: s,
    app: a,
  }) => {
    const before = (await listLeads(a, {})).total;
    const u = await makeUser(s.db, a.app.id, { userId: unique("lead") });
    const visitor = await bootTestVisitor(s, a);
    const vid = BigInt(visitor.boot.visitor.id);
    expect((await listLeads(a, {})).total).toBe(before + 1);
    // A visitor becomes a lead by an email, then by a conversation; loses the first and keeps the second.
    ok(await setProps(a, vid, { $email: `${unique("v")}@example.test` }));
    ok(await a.api.postJson(`/api/v2/users/${vid}/startconversation`, { body: "Hello" }));
    ok(await setProps(a, vid, { $email: null }));
    expect((await listLeads(a, {})).total).toBe(before + 2);
    expect(await leadCountDrift(s.db)).toEqual([]);
    // The visitor logs in as the known user: merged into it, one lead fewer.
    const settings = await s.db.messengerSettings.findUniqueOrThrow({ where: { appId: a.app.id } });
    const hash = userHashOf(settings.identitySecret, u.userId!);
    ok(await visitor.api.postJson("/api/v2/messenger/auth", { user_id: u.userId, user_hash: hash }));
    expect(await s.db.user.findUnique({ where: { id: vid } })).toBeNull();
    expect((await listLeads(a, {})).total).toBe(before + 1);
    await s.db.user.delete({ where: { id: u.id } });
    expect((await listLeads(a, {})).total).toBe(before);
    // Another app's users, its import, and the app's removal with its users.
    const other = await makeApp(s.db);
    await makeUser(s.db, other.app.id);
    expect(await importUsersCsv(s, other.token, "$user_id,$name\nimp-a,A\nimp-b,B\n")).toBe("done");
    expect(await s.db.leadCount.findUnique({ where: { appId: other.app.id } })).toMatchObject({ leads: 3 });
    expect(await leadCountDrift(s.db)).toEqual([]);
    await s.db.app.delete({ where: { id: other.app.id } });
    expect(await leadCountDrift(s.db)).toEqual([]);
  });

  it("keeps event summaries exact through single and concurrent ingest, merges and deletes", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id, { userId: unique("ev") });
    const track = (id: bigint, event: string, created?: number) =>
      a.api.postJson(`/api/users/${id}/events`, { event, ...(created ? { created } : {}) });
    ok(await track(u.id, "Paid", 1_700_000_000));
    await Promise.all(Array.from({ length: 12 }, (_, i) => track(u.id, i % 2 ? "Paid" : "Opened")));
    const visitor = await bootTestVisitor(s, a);
    const vid = BigInt(visitor.boot.visitor.id);
    ok(await track(vid, "Paid", 1_600_000_000));
    ok(await track(vid, "Visited"));
    const settings = await s.db.messengerSettings.findUniqueOrThrow({ where: { appId: a.app.id } });
    const hash = userHashOf(settings.identitySecret, u.userId!);
    ok(await visitor.api.postJson("/api/v2/messenger/auth", { user_id: u.userId, user_hash: hash }));
    const paid = await s.db.userEventSummary.findFirstOrThrow({
      where: { userId: u.id, type: { name: "Paid" } },
    });
    expect(paid).toMatchObject({ count: 8, first: new Date(1_600_000_000_000) });
    expect(await summaryDrift(s.db)).toEqual([]);
    await s.db.user.delete({ where: { id: u.id } });
    expect(await summaryDrift(s.db)).toEqual([]);
  });
});
