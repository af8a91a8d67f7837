import type { Ctx } from "../auth/context";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { ok } from "../users/testing";
import { compileFilters } from "./compile";
import { complementTotal } from "./complement";
import { parseFilters } from "./filters";

export const DAY = 86_400_000;

/** A context for calling the leads services directly, as an operator of the test app. */
export function serviceCtx(s: TestServer, a: TestApp, requestId: string): Ctx {
  return {
    db: s.db,
    actor: { kind: "admin", adminId: 0n, sessionId: 0n, appIds: [a.app.id] },
    appId: a.app.id,
    requestId,
  };
}

/** Imports users from a CSV (merged by $user_id) as the token's app, and waits for the job's end: its status. */
export async function importUsersCsv(s: TestServer, token: string, csv: string): Promise<string> {
  const fd = new FormData();
  fd.append("merge_field", "$user_id");
  fd.append("file", new Blob([csv], { type: "text/csv" }), "u.csv");
  const job = ok<{ id: number }>(
    await s.call("/api/users/import", {
      method: "POST",
      headers: { Authorization: `Token ${token}` },
      body: fd,
    }),
  );
  for (let i = 0; i < 600; i++) {
    const j = await s.db.importJob.findUniqueOrThrow({ where: { id: BigInt(job.id) } });
    if (j.status === "done" || j.status === "failed") return j.status;
    await new Promise((r) => setTimeout(r, 100));
  }
  return "still running after 60 s";
}

/** Sets a user's props through the props API, as the panel does; a null value deletes the prop. */
export const setProps = (a: Pick<TestApp, "api">, id: bigint, props: Record<string, unknown>) =>
  a.api.postJson(`/api/users/${id}/props`, {
    operations: Object.entries(props).map(([key, value]) =>
      value === null ? { op: "delete", key } : { op: "update_or_create", key, value },
    ),
  });

/**
 * Five users of one app for the leads list tests, by name: two leads with system and custom props (Ann tagged
 * "vip" and with three "Bought" events, Bob with one three days old), one with only an external ID, one with web
 * push, and "ghost", who is not a lead. `bought` is the "Bought" event type's ID.
 */
export async function seedLeads(
  db: Db,
  a: TestApp,
): Promise<{ ids: Record<string, bigint>; bought: number }> {
  const ids: Record<string, bigint> = {};
  let bought = 0;
  const api = a.api;
  const now = Date.now();
  const make = async (key: string, data: Record<string, unknown>) => {
    ids[key] = (await db.user.create({ data: { appId: a.app.id, ...data } })).id;
  };
  await make("ann", {
    name: "Ann Lee",
    email: "ann@a.test",
    sessions: 10,
    lastSeen: new Date(now - DAY),
    propsCustom: {
      plan: "pro",
      seats: 12,
      trial: false,
      interests: ["ai", "crm"],
      signup: "2024-01-10T00:00:00",
    },
  });
  await make("bob", {
    name: "Bob",
    email: "bob@b.test",
    phone: "+1 555",
    sessions: 2,
    lastSeen: new Date(now - 10 * DAY),
    propsCustom: { plan: "free", seats: 1, trial: true, interests: ["crm"], signup: "2024-03-01T00:00:00" },
  });
  await make("cid", { userId: "cid-1" });
  await make("pushy", { webpushSubscribed: true, propsCustom: { seats: "many" } });
  await make("ghost", { propsCustom: { plan: "pro" } });
  ok(await api.postJson(`/api/users/${ids.ann}/tags`, { tag: "vip" }));
  for (let i = 0; i < 3; i++)
    bought = ok<{ type: { id: number } }>(
      await api.postJson(`/api/users/${ids.ann}/events`, { event: "Bought" }),
    ).type.id;
  ok(
    await api.postJson(`/api/users/${ids.bob}/events`, {
      event: "Bought",
      created: Math.floor((now - 3 * DAY) / 1000),
    }),
  );
  return { ids, bought };
}

export type Lead = { id: number; presence: string; props: Record<string, unknown> };

/** The app's leads list (in API version `v`, "" or "v1/"), with each lead's seed name. */
export async function listLeads(
  a: TestApp,
  ids: Record<string, bigint>,
  filters?: unknown,
  extra: Record<string, unknown> = {},
  v = "",
) {
  const nameOf = (id: number) => Object.entries(ids).find(([, x]) => Number(x) === id)?.[0];
  const r = await a.api.get(`/api/${v}apps/${a.app.id}/users`, { filters, ...extra });
  const data = ok<{ total: number; users: Lead[] }>(r);
  return { total: data.total, names: data.users.map((u) => nameOf(u.id)), users: data.users };
}

/** One condition, as the API takes it. */
export const condition = (property_name: string, type: string, value: unknown = {}) => ({
  property_name,
  type,
  value,
});

/** A filter of one condition. */
export const one = (property_name: string, type: string, value: unknown = {}) => ({
  type: "and",
  filters: [condition(property_name, type, value)],
});

/** Apps whose kept lead counts (lead_counts: leads, and those with a name, an email) differ from a count of their users: none, when the trigger is right. */
export async function leadCountDrift(db: Db) {
  return db.$queryRaw<{ app_id: bigint }[]>`
    SELECT coalesce(k.app_id, u.app_id) AS app_id FROM lead_counts k
    FULL JOIN (
      SELECT app_id, count(*) FILTER (WHERE is_lead)::int AS leads, count(*) FILTER (WHERE is_lead_v1)::int AS v1,
        count(*) FILTER (WHERE is_lead AND name IS NOT NULL)::int AS named,
        count(*) FILTER (WHERE is_lead_v1 AND name IS NOT NULL)::int AS named_v1,
        count(*) FILTER (WHERE is_lead AND email IS NOT NULL)::int AS emailed,
        count(*) FILTER (WHERE is_lead_v1 AND email IS NOT NULL)::int AS emailed_v1
      FROM users GROUP BY app_id
    ) u ON u.app_id = k.app_id
    WHERE (coalesce(k.leads, 0), coalesce(k.leads_v1, 0), coalesce(k.named, 0), coalesce(k.named_v1, 0),
        coalesce(k.emailed, 0), coalesce(k.emailed_v1, 0))
      <> (coalesce(u.leads, 0), coalesce(u.v1, 0), coalesce(u.named, 0), coalesce(u.named_v1, 0),
        coalesce(u.emailed, 0), coalesce(u.emailed_v1, 0))`;
}

/**
 * Event summaries (first, last, count per user and type, the user's lead flag) that differ from their events and
 * their user: none when kept exactly.
 */
export async function summaryDrift(db: Db) {
  return db.$queryRaw<{ user_id: bigint }[]>`
    SELECT coalesce(s.user_id, e.user_id) AS user_id FROM user_event_summaries s
    FULL JOIN (
      SELECT user_id, type_id, min(created) AS first, max(created) AS last, count(*)::int AS n
      FROM events GROUP BY user_id, type_id
    ) e ON e.user_id = s.user_id AND e.type_id = s.event_type_id
    WHERE s.user_id IS NULL OR e.user_id IS NULL
      OR s."first" <> e.first OR s."last" <> e.last OR s."count" <> e.n
      OR s.lead <> (SELECT u.is_lead FROM users u WHERE u.id = s.user_id)`;
}

/**
 * Custom props whose typed row (user_prop_values) or list items (user_prop_items) differ from what the users' JSON
 * says they should be: none, when the triggers are right. Missing, extra and stale rows all show.
 */
export async function propValueDrift(db: Db) {
  return db.$queryRaw<{ user_id: bigint; key: string }[]>`
    SELECT coalesce(v.user_id, j.user_id) AS user_id, coalesce(v.key, j.key) AS key FROM user_prop_values v
    FULL JOIN (
      SELECT u.id AS user_id, u.app_id, u.is_lead, r.key, r.num, r.at, r.txt, r.bool
      FROM users u, relay_prop_rows(u.props_custom) r
    ) j ON j.user_id = v.user_id AND j.key = v.key
    WHERE v.user_id IS NULL OR j.user_id IS NULL
      OR v.app_id <> j.app_id OR v.num IS DISTINCT FROM j.num OR v.at IS DISTINCT FROM j.at
      OR v.txt IS DISTINCT FROM j.txt OR v.bool IS DISTINCT FROM j.bool OR v.lead <> j.is_lead
    UNION ALL
    SELECT coalesce(i.user_id, j.user_id), coalesce(i.key, j.key) FROM user_prop_items i
    FULL JOIN (
      SELECT u.id AS user_id, u.app_id, u.is_lead, r.key, r.item FROM users u, relay_prop_items(u.props_custom) r
    ) j ON j.user_id = i.user_id AND j.key = i.key AND j.item = i.item
    WHERE i.user_id IS NULL OR j.user_id IS NULL OR i.app_id <> j.app_id OR i.lead <> j.is_lead`;
}

/** A filter's leads counted directly (one WHERE, no kept count or complement), under the version's lead flag. */
export async function directLeadCount(
  db: Db,
  appId: bigint,
  filters: unknown,
  flag: "is_lead" | "is_lead_v1",
): Promise<number> {
  const where = await compileFilters(parseFilters(filters), { db, appId });
  const [row] = await db.$queryRaw<{ n: number }[]>(
    Prisma.sql`SELECT count(*)::int AS n FROM users u
      WHERE u.app_id = ${appId} AND ${Prisma.raw(`u.${flag}`)} AND ${where}`,
  );
  return row!.n;
}

/** The count statement complement.ts picks for a filter (null: counted directly); not run. */
export function complementFor(db: Db, appId: bigint, filters: unknown, rule: "v2" | "v1") {
  return complementTotal(parseFilters(filters), {
    db,
    appId,
    flag: Prisma.sql`u.is_lead`,
    leads: Prisma.sql`0`,
    rule,
    now: new Date(),
  });
}

/** IDs in the leads list's default order: `last_seen` descending, never seen last, then ID descending. */
export function inListOrder(rows: { id: bigint; seen: number | null }[]): bigint[] {
  return [...rows]
    .sort((x, y) => {
      if (x.seen !== y.seen) {
        if (x.seen === null) return 1;
        if (y.seen === null) return -1;
        return y.seen - x.seen;
      }
      return x.id < y.id ? 1 : -1;
    })
    .map((r) => r.id);
}

/** Thrown to roll a transaction back with what it read. */
class RolledBack<T> extends Error {
  constructor(readonly value: T) {
    super("rolled back");
  }
}

/**
 * What `work` reads in one transaction rolled back, given `explain` (a statement's EXPLAIN text): the rows and
 * settings a plan test needs never reach the other tests.
 */
export async function readRolledBack<T>(
  db: Db,
  work: (tx: Prisma.TransactionClient, explain: (statement: Prisma.Sql) => Promise<string>) => Promise<T>,
): Promise<T> {
  return db
    .$transaction(async (tx) => {
      const explain = async (statement: Prisma.Sql) => {
        const rows = await tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${statement}`);
        return rows.map((r) => Object.values(r)[0]).join("\n");
      };
      throw new RolledBack(await work(tx, explain));
    })
    .catch((err: unknown) => {
      if (err instanceof RolledBack) return err.value as T;
      throw err;
    });
}
