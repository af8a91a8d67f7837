import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeApp, unique } from "../testing/factories";
import { ok } from "../users/testing";
import { complementFor, directLeadCount, listLeads, one, readRolledBack } from "./testing";

/**
 * A filter of one negated condition is counted as the app's kept lead count minus the leads it drops, `$phone`
 * known / unknown on the users with a phone, `$email` / `$phone` str_neq and str_ncontains on the users whose value
 * matches, and one custom condition on the prop's typed rows (complement.ts): the
 * total must stay the count of the leads the filter keeps, with the prop missing, JSON null, empty or of another
 * type, with users who are not leads, in both API versions; other filters keep being counted as they are.
 */
describe("totals of negated conditions, counted as their complement", () => {
  it("equal a direct count and the leads listed", async ({ server: s, app: a }) => {
    const ids: Record<string, bigint> = {};
    const user = async (key: string, data: Record<string, unknown>) => {
      ids[key] = (await s.db.user.create({ data: { appId: a.app.id, ...data } })).id;
    };
    const lead = (key: string, data: Record<string, unknown>) => user(key, { userId: unique(key), ...data });
    await lead("br", {
      email: "Ana.GMail@Example.com",
      country: "Brasil",
      city: "Santos",
      phone: "+55 11",
      sessions: 3,
      propsCustom: { interests: ["api"], mrr: 0 },
    });
    await lead("BR", {
      email: "beto@gmail.com",
      country: "BRASIL",
      sessions: 0,
      propsCustom: { interests: ["API", "crm"], mrr: 100 },
    });
    await lead("us", {
      email: "BOB@Yahoo.ÉS",
      country: "United States",
      city: "",
      sessions: 3,
      propsCustom: { interests: "api", mrr: "100" },
    });
    await lead("empty", { email: "", country: "", sessions: 1, propsCustom: { interests: [], mrr: 250 } });
    await lead("none", { propsCustom: { interests: null, mrr: null } });
    // A lead by an empty phone alone (a phone, even empty, makes a lead), with no custom props.
    await user("phoned", { phone: "" });
    // A web-push subscriber: a lead in v2, not in v1.
    await user("push", { webpushSubscribed: true, country: "Chile", propsCustom: { mrr: 5 } });
    // Another app's user whose email and phone match: not subtracted from this app's leads.
    const other = await makeApp(s.db);
    await s.db.user.create({ data: { appId: other.app.id, email: "beto@gmail.com", phone: "+55 12" } });
    // Not a lead: drops nothing from the leads' count.
    await user("ghost", { country: "Brasil", sessions: 3, propsCustom: { interests: ["api"], mrr: 0 } });
    const track = (id: bigint, n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          a.api
            .postJson(`/api/users/${id}/events`, { event: "Paid" })
            .then((r) => ok<{ type: { id: number } }>(r)),
        ),
      );
    const [paid] = await track(ids.br!, 2);
    await track(ids.us!, 1);
    await track(ids.ghost!, 1);
    const ev = `$event_${paid!.type.id}_count`;

    const or = (property_name: string, type: string, value: unknown = {}) => ({
      type: "or",
      filters: [{ property_name, type, value }],
    });
    // Each condition counted by its complement with the leads it keeps (v2).
    const complemented: [unknown, string[]][] = [
      [one("$country", "str_neq", { value: "brasil" }), ["us", "empty", "none", "push", "phoned"]],
      [one("$country", "str_neq", { value: "" }), ["br", "BR", "us", "none", "push", "phoned"]],
      [or("$city", "str_neq", { value: "SANTOS" }), ["BR", "us", "empty", "none", "push", "phoned"]],
      [one("$city", "str_neq", { value: "" }), ["br", "BR", "empty", "none", "push", "phoned"]],
      [one("$sessions", "neq", { value: 3 }), ["BR", "empty", "none", "push", "phoned"]],
      [one("interests", "list_ncontains", { value: "api" }), ["BR", "us", "empty", "none", "push", "phoned"]],
      [one("$phone", "known"), ["br", "phoned"]],
      [one("$phone", "unknown"), ["BR", "us", "empty", "none", "push"]],
      // `$email` / `$phone` negated text: the leads minus the app's users whose value matches (any value makes a lead).
      [one("$email", "str_ncontains", { value: "gmail" }), ["us", "empty", "none", "push", "phoned"]],
      [or("$email", "str_ncontains", { value: "YAHOO.ÉS" }), ["br", "BR", "empty", "none", "push", "phoned"]],
      [one("$email", "str_ncontains", { value: "" }), ["none", "push", "phoned"]],
      [
        one("$email", "str_neq", { value: "Beto@GMAIL.com" }),
        ["br", "us", "empty", "none", "push", "phoned"],
      ],
      [one("$email", "str_neq", { value: "" }), ["br", "BR", "us", "none", "push", "phoned"]],
      [one("$phone", "str_ncontains", { value: "55" }), ["BR", "us", "empty", "none", "push", "phoned"]],
      [one("$phone", "str_neq", { value: "" }), ["br", "BR", "us", "empty", "none", "push"]],
      // One custom condition, positive or negated: counted on the prop's typed rows and their lead flag.
      [one("mrr", "unknown"), ["phoned"]],
      [one("mrr", "lt_or_unknown", { value: 100 }), ["br", "us", "none", "push", "phoned"]],
      [one("mrr", "gt_or_unknown", { value: 5 }), ["BR", "us", "empty", "none", "phoned"]],
      [one("mrr", "neq", { value: 0 }), ["BR", "us", "empty", "none", "push", "phoned"]],
      [one("mrr", "known"), ["br", "BR", "us", "empty", "none", "push"]],
      [one("mrr", "gt", { value: 5 }), ["BR", "empty"]],
      [one("mrr", "str_neq", { value: "100" }), ["br", "empty", "none", "push", "phoned"]],
      [or("mrr", "str_contains", { value: "0" }), ["br", "BR", "us", "empty"]],
      [one("mrr", "str_ncontains", { value: "0" }), ["none", "push", "phoned"]],
      // One event condition: counted on the type's summaries and their lead flag.
      [one(ev, "lt_or_unknown", { value: 2 }), ["BR", "us", "empty", "none", "push", "phoned"]],
      [one(ev, "gt_or_unknown", { value: 1 }), ["br", "BR", "empty", "none", "push", "phoned"]],
      [one(ev, "neq", { value: 1 }), ["br", "BR", "empty", "none", "push", "phoned"]],
      [one(ev, "unknown"), ["BR", "empty", "none", "push", "phoned"]],
      [one(ev, "gte", { value: 1 }), ["br", "us"]],
    ];
    // Counted as they are: more than one condition, a nested group, negations the complement leaves alone.
    const direct: [unknown, string[]][] = [
      [
        {
          type: "and",
          filters: [
            ...one("$country", "str_neq", { value: "brasil" }).filters,
            ...one("$sessions", "gte", { value: 1 }).filters,
          ],
        },
        ["us", "empty"],
      ],
      [
        { type: "and", filters: [one("interests", "list_ncontains", { value: "api" })] },
        ["BR", "us", "empty", "none", "push", "phoned"],
      ],
      [one("$country", "known"), ["br", "BR", "us", "empty", "push"]],
      [one("$email", "str_contains", { value: "GMAIL" }), ["br", "BR"]],
    ];
    for (const [filters, want] of [...complemented, ...direct]) {
      const label = JSON.stringify(filters);
      // Only whether the complement applies: the statement is not run here.
      const counted = await complementFor(s.db, a.app.id, filters, "v2");
      expect(counted !== null, label).toBe(complemented.some(([f]) => f === filters));
      const got = await listLeads(a, ids, filters, { limit: 50 });
      expect(got.names.sort(), label).toEqual([...want].sort());
      expect(got.total, label).toBe(want.length);
      expect(got.total, label).toBe(await directLeadCount(s.db, a.app.id, filters, "is_lead"));
      const v1 = await listLeads(a, ids, filters, { limit: 50 }, "v1/");
      expect(v1.total, `v1 ${label}`).toBe(want.filter((k) => k !== "push").length);
      expect(v1.total, `v1 ${label}`).toBe(await directLeadCount(s.db, a.app.id, filters, "is_lead_v1"));
    }
  });
});

it("counts the users a negated `$email` text drops from the lower-cased email's index alone", async ({
  server: s,
  app: a,
}) => {
  // The index holds the lower-cased email beside the email (migration *_lower_email_covering): without the email
  // included PostgreSQL would not plan an index-only scan, and would read each user's row for it.
  const plans = await readRolledBack(s.db, async (tx, explain) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    await tx.$executeRawUnsafe("SET LOCAL enable_bitmapscan = off");
    await tx.$executeRaw`INSERT INTO users (app_id, email)
      SELECT ${a.app.id}, CASE WHEN i % 3 = 0 THEN 'U' || i || '@Example.test' END FROM generate_series(1, 3000) i`;
    await tx.$executeRawUnsafe("ANALYZE users");
    const out: string[] = [];
    for (const type of ["str_ncontains", "str_neq"]) {
      const total = await complementFor(s.db, a.app.id, one("$email", type, { value: "u3@" }), "v2");
      out.push(await explain(total!));
    }
    return out;
  });
  for (const plan of plans) expect(plan).toMatch(/Index Only Scan using users_app_id_lower_email_idx/);
});
