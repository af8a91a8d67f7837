import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { migrate, MIGRATIONS_DIR } from "../db/migrate";
import { SCOPES } from "./scopes";

const MIGRATION = "20261125092100_app_admin_scope";
const SIX = SCOPES.filter((s) => s !== "app-admin");

/** The project's migrations up to `last` (included), in a directory of their own. */
function migrationsUpTo(dir: string, last: string): void {
  for (const name of fs.readdirSync(MIGRATIONS_DIR).sort()) {
    if (name > last || !fs.statSync(path.join(MIGRATIONS_DIR, name)).isDirectory()) continue;
    fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  }
}

describe(`migration ${MIGRATION}`, () => {
  it("gives app-admin to the tokens that held every scope before it, and only to them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-scopes-"));
    const db = await PGlite.create();
    try {
      const before = fs.readdirSync(MIGRATIONS_DIR).filter((n) => n < MIGRATION);
      migrationsUpTo(dir, before.sort().at(-1)!);
      await migrate({ url: "pglite:memory://", pglite: db }, dir);
      const app = await db.query<{ id: string }>(`INSERT INTO apps (name) VALUES ('A') RETURNING id`);
      const tokens: [string, string[]][] = [
        ["every", [...SIX]],
        ["reordered", [...SIX].reverse()],
        ["narrow", ["user-read", "users-list"]],
        ["already", [...SCOPES]],
      ];
      for (const [name, scopes] of tokens) {
        await db.query(
          `INSERT INTO api_tokens (app_id, name, token_hash, prefix, scopes) VALUES ($1, $2, $2, 'rly_', $3)`,
          [app.rows[0]!.id, name, scopes],
        );
      }
      migrationsUpTo(dir, MIGRATION);
      expect(await migrate({ url: "pglite:memory://", pglite: db }, dir)).toEqual([MIGRATION]);
      const rows = await db.query<{ name: string; scopes: string[] }>(
        `SELECT name, scopes FROM api_tokens ORDER BY id`,
      );
      expect(Object.fromEntries(rows.rows.map((r) => [r.name, r.scopes]))).toEqual({
        every: [...SIX, "app-admin"],
        reordered: [...[...SIX].reverse(), "app-admin"],
        narrow: ["user-read", "users-list"],
        already: [...SCOPES],
      });
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
