import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDb, type DbHandle } from "../db/client";
import { migrate } from "../db/migrate";
import { serverUrl } from "../db/testing";

/**
 * A migrated database for a child server process (lib/testing/spawn.ts) that outlives the process: a PGlite
 * directory, or a database of its own on the PostgreSQL server when DATABASE_URL names one. `open` gives the test
 * its own connection while no server holds it (PGlite allows one process at a time).
 */
export interface Target {
  env: Record<string, string>;
  open(): Promise<DbHandle>;
  drop(): Promise<void>;
}

export async function makeTarget(prefix: string): Promise<Target> {
  const pgUrl = serverUrl();
  let url: string;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  if (!pgUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `relay-${prefix}-`));
    url = `pglite://${dir}/db`;
    env = { DATA_DIR: dir, DATABASE_URL: "" };
    drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `relay_${prefix}_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const u = new URL(pgUrl);
    u.pathname = `/${name}`;
    url = u.toString();
    env = { DATABASE_URL: url };
    drop = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    };
  }
  const h = await openDb(url);
  try {
    await migrate({ url, pglite: h.pglite });
  } finally {
    await h.close();
  }
  return { env, open: () => openDb(url), drop };
}
