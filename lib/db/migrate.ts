import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { dbKind } from "./client";

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
// Any constant works: it only has to be the same for every instance that migrates this database.
const LOCK_KEY = 727_001;

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_schema_migrations" (
  "name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied" TIMESTAMPTZ(6) NOT NULL DEFAULT now())`;

function pending(all: Migration[], applied: { name: string; checksum: string }[]): Migration[] {
  const done = new Map(applied.map((r) => [r.name, r.checksum]));
  for (const m of all) {
    const sum = done.get(m.name);
    if (sum !== undefined && sum !== m.checksum) {
      throw new Error(`migration ${m.name} was changed after it was applied; add a new migration instead`);
    }
  }
  return all.filter((m) => !done.has(m.name));
}

/**
 * Applies every migration not yet applied, each in one transaction together with its bookkeeping row, so a
 * process killed mid-way leaves either the whole migration or none of it. Returns the names applied.
 */
export async function migrate(
  target: { url: string; pglite?: PGlite },
  dir = MIGRATIONS_DIR,
): Promise<string[]> {
  const all = readMigrations(dir);
  if (dbKind(target.url) === "pglite") {
    if (!target.pglite) throw new Error("migrate: an embedded database needs its PGlite instance");
    const db = target.pglite;
    await db.exec(BOOKKEEPING);
    const applied = await db.query<{ name: string; checksum: string }>(
      `SELECT name, checksum FROM "_schema_migrations"`,
    );
    const todo = pending(all, applied.rows);
    for (const m of todo) {
      await db.transaction(async (tx) => {
        await tx.exec(m.sql);
        await tx.query(`INSERT INTO "_schema_migrations" (name, checksum) VALUES ($1, $2)`, [
          m.name,
          m.checksum,
        ]);
      });
    }
    return todo.map((m) => m.name);
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    // Several instances may start at once: the lock makes them apply migrations one after another.
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(BOOKKEEPING);
    const applied = await client.query<{ name: string; checksum: string }>(
      `SELECT name, checksum FROM "_schema_migrations"`,
    );
    const todo = pending(all, applied.rows);
    for (const m of todo) {
      try {
        await client.query("BEGIN");
        await client.query(m.sql);
        await client.query(`INSERT INTO "_schema_migrations" (name, checksum) VALUES ($1, $2)`, [
          m.name,
          m.checksum,
        ]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw err;
      }
    }
    return todo.map((m) => m.name);
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
