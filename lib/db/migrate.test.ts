import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrate, readMigrations } from "./migrate";
import { createTestDb, serverUrl, type TestDb } from "./testing";

function tmpMigrations(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-mig-"));
  for (const [name, sql] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

describe("migrate (embedded)", () => {
  it("applies every migration once, in order, and records them", async () => {
    const db = await PGlite.create();
    const dir = tmpMigrations({
      "001_a": "CREATE TABLE a (id int);",
      "002_b": "ALTER TABLE a ADD COLUMN b text; CREATE TABLE c (x int);",
    });
    expect(await migrate({ url: "pglite:memory://", pglite: db }, dir)).toEqual(["001_a", "002_b"]);
    expect(await migrate({ url: "pglite:memory://", pglite: db }, dir)).toEqual([]);
    const cols = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'a' ORDER BY 1",
    );
    expect(cols.rows.map((r) => r.column_name)).toEqual(["b", "id"]);
    await db.close();
  });

  it("leaves nothing of a migration that fails half-way", async () => {
    const db = await PGlite.create();
    const dir = tmpMigrations({
      "001_ok": "CREATE TABLE a (id int);",
      "002_bad": "CREATE TABLE b (id int); SELECT nope;",
    });
    await expect(migrate({ url: "pglite:memory://", pglite: db }, dir)).rejects.toThrow();
    const t = await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'b'");
    expect(t.rows).toHaveLength(0);
    const applied = await db.query<{ name: string }>(`SELECT name FROM "_schema_migrations"`);
    expect(applied.rows.map((r) => r.name)).toEqual(["001_ok"]);
    await db.close();
  });

  it("refuses a migration edited after it was applied", async () => {
    const db = await PGlite.create();
    const dir = tmpMigrations({ "001_a": "CREATE TABLE a (id int);" });
    await migrate({ url: "pglite:memory://", pglite: db }, dir);
    fs.writeFileSync(path.join(dir, "001_a", "migration.sql"), "CREATE TABLE a (id bigint);");
    await expect(migrate({ url: "pglite:memory://", pglite: db }, dir)).rejects.toThrow(
      /changed after it was applied/,
    );
    await db.close();
  });
});

describe("the project's migrations", () => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("give a database where every table of the schema answers", async () => {
    t = await createTestDb();
    const rows = await t.db.$queryRaw<
      { name: string }[]
    >`SELECT name FROM "_schema_migrations" ORDER BY name`;
    expect(rows.map((r) => r.name)).toEqual(readMigrations().map((m) => m.name));
    expect(await t.db.conversation.count()).toBe(0);
    expect(await t.db.user.count()).toBe(0);
  });
});

describe.runIf(serverUrl())("migrate (PostgreSQL)", () => {
  it("is safe when several instances migrate at once", async () => {
    const url = serverUrl()!;
    const name = `relay_mig_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    try {
      const results = await Promise.all([1, 2, 3, 4].map(() => migrate({ url: u.toString() })));
      expect(results.flat().sort()).toEqual(
        readMigrations()
          .map((m) => m.name)
          .sort(),
      );
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
