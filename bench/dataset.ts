import crypto from "node:crypto";
import pg from "pg";
import { openDb } from "../lib/db/client";
import { migrationsKey, prepareTestDatabases } from "../lib/db/testing";
import { makeAdmin, makeApp } from "../lib/testing/factories";
import { EVENT_TYPES } from "./dataset-fixtures";
import * as L from "./dataset-load";
import * as S from "./dataset-sql";
import * as U from "./dataset-sql-users";

/**
 * The benchmark dataset: one app with BENCH_USERS users (1,000,000 by default), a tenth as many conversations and
 * 20 parts each, events and their summaries, user tags. Built once per (size, schema, generator) in a database of its own,
 * made from the migrated template of the tests and renamed only when complete; later runs reuse it, vacuumed first.
 * `BENCH_REBUILD=1` (or `--rebuild`) drops and builds it again.
 */
export interface DatasetInfo {
  url: string;
  name: string;
  appId: bigint;
  /** The dataset's "now": relative filters are counted from it, so figures do not drift as it ages. */
  at: string;
  users: number;
  leads: number;
  conversations: number;
  parts: number;
  events: number;
  eventTypes: Record<string, string>;
  buildSeconds: number;
  builtNow: boolean;
  /** The last part and user IDs of the build (datasets built before 2026-11-28 lack them). */
  partsMaxId?: string;
  usersMaxId?: string;
  /** On a reused dataset: the parts and users earlier runs wrote into it (replies, imports, visitors). */
  earlierWrites?: { parts: number; users: number };
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A compact size label: 1m, 100k, 2500. */
function sizeLabel(n: number): string {
  if (n % 1_000_000 === 0) return `${n / 1_000_000}m`;
  if (n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}

/** Bump when the generator changes what it makes: a new version (like new migrations) makes a new dataset. */
const GENERATOR_VERSION = 3;

function generatorKey(): string {
  return crypto
    .createHash("sha256")
    .update(`${migrationsKey()}:${GENERATOR_VERSION}`)
    .digest("hex")
    .slice(0, 10);
}

export async function ensureDataset(
  base: string,
  opts: { users: number; rebuild?: boolean; log?: (l: string) => void },
): Promise<DatasetInfo> {
  const log = opts.log ?? console.log;
  const name = `relay_bench_${sizeLabel(opts.users)}_${generatorKey()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount;
    if (exists && opts.rebuild) await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    let builtNow = false;
    if (!exists || opts.rebuild) {
      await build(admin, base, name, opts.users, log);
      builtNow = true;
    }
    const meta = await admin.query<{ c: string }>(
      "SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1",
      [name],
    );
    const info = JSON.parse(meta.rows[0]?.c ?? "{}") as Omit<
      DatasetInfo,
      "url" | "name" | "builtNow" | "appId"
    >;
    const c = new pg.Client({ connectionString: withDatabase(base, name) });
    await c.connect();
    // A reused dataset carries the writes of earlier runs' write cases (props updates, events, replies): their dead
    // rows clear the visibility map, so index-only scans read the table and plans change with the runs before
    // (`$name` unknown at offset 9,980 became a 100 ms scan after 145k dead users rows). Vacuumed, each run starts
    // from the same state; it reads only the pages those writes touched.
    if (!builtNow) await c.query("VACUUM (ANALYZE)");
    const app = await c.query<{ id: string }>("SELECT id FROM apps WHERE name = 'Bench' ORDER BY id LIMIT 1");
    const earlierWrites = builtNow ? undefined : await writtenSince(c, info, log);
    await c.end();
    return {
      ...info,
      url: withDatabase(base, name),
      name,
      appId: BigInt(app.rows[0]!.id),
      builtNow,
      earlierWrites,
    };
  } finally {
    await admin.end();
  }
}

/**
 * What earlier runs wrote into a reused dataset, said aloud: those writes stay (the replies fill search's recent
 * window, imports and visitors grow the users table), so its figures are not comparable with a fresh build's.
 */
async function writtenSince(
  c: pg.Client,
  info: Pick<DatasetInfo, "partsMaxId" | "usersMaxId">,
  log: (l: string) => void,
): Promise<DatasetInfo["earlierWrites"]> {
  if (info.partsMaxId === undefined || info.usersMaxId === undefined) return undefined;
  const r = await c.query<{ parts: number; users: number }>(
    `SELECT (SELECT count(*) FROM conversation_parts WHERE id > $1)::int AS parts,
       (SELECT count(*) FROM users WHERE id > $2)::int AS users`,
    [info.partsMaxId, info.usersMaxId],
  );
  const w = r.rows[0]!;
  if (w.parts > 0 || w.users > 0) {
    log(
      `dataset: reused, holding ${w.parts.toLocaleString("en")} parts and ${w.users.toLocaleString("en")} users ` +
        "that earlier runs wrote: not comparable with a fresh build's figures (--rebuild makes one)",
    );
  }
  return w;
}

async function build(admin: pg.Client, base: string, name: string, users: number, log: (l: string) => void) {
  await prepareTestDatabases();
  const building = `${name}_building`;
  await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${building}" TEMPLATE "relay_tpl_${migrationsKey()}"`);
  const url = withDatabase(base, building);
  const started = Date.now();
  let last = started;
  const step = (label: string, rows?: number) => {
    const now = Date.now();
    log(
      `  ${label}${rows === undefined ? "" : `: ${rows.toLocaleString("en")} rows`} (${((now - last) / 1000).toFixed(1)} s)`,
    );
    last = now;
  };
  log(`dataset: building ${name} (${users.toLocaleString("en")} users)…`);

  const h = await openDb(url);
  const made = await makeApp(h.db, { name: "Bench" });
  const admins = [made.admin.id];
  for (let i = 0; i < 4; i++) admins.push((await makeAdmin(h.db, { appId: made.app.id })).id);
  const channels = [made.channel.id];
  for (const n of ["Sales", "Billing"]) {
    channels.push((await h.db.channel.create({ data: { appId: made.app.id, name: n } })).id);
  }
  const eventTypes: bigint[] = [];
  for (const n of EVENT_TYPES) {
    eventTypes.push((await h.db.eventType.create({ data: { appId: made.app.id, name: n } })).id);
  }
  await h.close();

  const shape: S.Shape = {
    appId: made.app.id,
    users,
    conversations: Math.max(1, Math.floor(users / 10)),
    admins,
    channels,
    eventTypes,
    at: new Date(),
  };
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const q of S.SESSION_SETUP) await c.query(q);
    const indexes = await L.dropSecondaryIndexes(c);
    await L.setChecks(c, false);
    step("setup");
    const parts = await S.insertParts(c, shape);
    step("parts", parts);
    await S.aggregateConversations(c, shape);
    const conversations = await S.insertConversations(c, shape);
    step("conversations", conversations);
    await U.insertUsers(c, shape);
    step("users", users);
    const events = await U.insertEvents(c, shape);
    step("events", events);
    const summaries = await U.insertEventSummaries(c, shape);
    step("event summaries", summaries);
    step("user tags", await U.insertUserTags(c, shape));
    step("custom prop values and list items", await U.insertPropValues(c));
    await L.setChecks(c, true);
    await L.resetSequences(c);
    // Before the rebuilds: the reports' attribution looks up each conversation's assignments per part, a scan of
    // the whole parts table per call without its indexes.
    for (const def of indexes) await c.query(def);
    step(`${indexes.length} indexes`);
    // The Inbox counters' and lead counts' triggers were off with the others while loading.
    await c.query("SELECT relay_recount_conversations()");
    await c.query("SELECT relay_recount_leads()");
    // So are the reports' facts and rollups (migration *_report_rollups).
    await c.query("SELECT relay_rebuild_reports()");
    step("counters, report rollups");
    await c.query("VACUUM (ANALYZE)");
    step("vacuum, analyze");
    const leads = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE is_lead");
    const last = await c.query<{ parts: string; users: string }>(
      "SELECT (SELECT max(id) FROM conversation_parts)::text AS parts, (SELECT max(id) FROM users)::text AS users",
    );
    const buildSeconds = Math.round((Date.now() - started) / 100) / 10;
    const info = {
      at: shape.at.toISOString(),
      users,
      leads: leads.rows[0]!.n,
      conversations,
      parts,
      events,
      eventTypes: Object.fromEntries(EVENT_TYPES.map((n, i) => [n, String(eventTypes[i])])),
      buildSeconds,
      partsMaxId: last.rows[0]!.parts,
      usersMaxId: last.rows[0]!.users,
    };
    await c.end();
    await admin.query(`COMMENT ON DATABASE "${building}" IS '${JSON.stringify(info).replace(/'/g, "''")}'`);
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    log(`dataset: ${name} made in ${buildSeconds} s`);
  } catch (err) {
    await c.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`).catch(() => undefined);
    throw err;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.env.DATABASE_URL;
  if (!base?.startsWith("postgres")) throw new Error("needs DATABASE_URL=postgres://…");
  const info = await ensureDataset(base, {
    users: Number(process.env.BENCH_USERS ?? 1_000_000),
    rebuild: process.env.BENCH_REBUILD === "1" || process.argv.includes("--rebuild"),
  });
  console.log(info);
  process.exit(0);
}
