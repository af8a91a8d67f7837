import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { createPglite } from "./pglite";
import { openDb, dbKind, type DbHandle } from "./client";
import { migrate, readMigrations } from "./migrate";

/**
 * Test databases: every test file gets its own, made from a migrated copy prepared once per run (a PGlite
 * snapshot, or a PostgreSQL template database when DATABASE_URL names a server).
 */
const CACHE = path.resolve(import.meta.dirname, "../../.cache");

export function migrationsKey(): string {
  const h = crypto.createHash("sha256");
  for (const m of readMigrations()) h.update(m.name).update(m.checksum);
  return h.digest("hex").slice(0, 12);
}

export function serverUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  return url && dbKind(url) === "postgres" ? url : undefined;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const snapshotFile = () => path.join(CACHE, `pglite-${migrationsKey()}.tar.gz`);
const templateName = () => `relay_tpl_${migrationsKey()}`;

/** Run once per test run (vitest globalSetup). */
export async function prepareTestDatabases(): Promise<void> {
  const url = serverUrl();
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const tpl = templateName();
      const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [tpl]);
      if (exists.rowCount === 0) {
        const building = `${tpl}_${process.pid}`;
        await admin.query(`CREATE DATABASE "${building}"`);
        await migrate({ url: withDatabase(url, building) });
        // Renamed only when complete, so a run killed half-way never leaves a half-migrated template.
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${tpl}"`).catch(async (err: unknown) => {
          await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
          const raced = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [tpl]);
          if (raced.rowCount === 0) throw err;
        });
      }
    } finally {
      await admin.end();
    }
    return;
  }
  const file = snapshotFile();
  if (fs.existsSync(file)) return;
  fs.mkdirSync(CACHE, { recursive: true });
  const db = await createPglite();
  await migrate({ url: "pglite:memory://", pglite: db });
  const blob = await db.dumpDataDir("gzip");
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
  fs.renameSync(tmp, file);
  await db.close();
}

export interface TestDb extends DbHandle {
  url: string;
}

let counter = 0;
let prepared: Promise<void> | undefined;

export async function createTestDb(): Promise<TestDb> {
  const url = serverUrl();
  if (url) {
    if (!prepared) prepared = prepareTestDatabases();
    await prepared;
    const name = `relay_t_${process.pid}_${++counter}_${crypto.randomBytes(3).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName()}"`);
    await admin.end();
    const dbUrl = withDatabase(url, name);
    const h = await openDb(dbUrl, { poolSize: 20 });
    return {
      ...h,
      url: dbUrl,
      close: async () => {
        await h.close();
        const a = new pg.Client({ connectionString: url });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await a.end();
      },
    };
  }
  const file = snapshotFile();
  if (!fs.existsSync(file)) await prepareTestDatabases();
  const blob = new Blob([fs.readFileSync(file)]);
  const pglite = await createPglite(undefined, { loadDataDir: blob });
  const h = await openDb("pglite:memory://", { pglite });
  return { ...h, url: "pglite:memory://" };
}
