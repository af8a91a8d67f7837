import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPglite } from "../db/pglite";
import { migrate, readMigrations } from "../db/migrate";

const MINE = readMigrations().find((m) => m.name.endsWith("_routing_modes"))!.name;

/** The project's migrations up to `last` (or before it), copied into a directory of their own. */
function migrationsUpTo(last: string, including: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-routing-modes-"));
  for (const m of readMigrations()) {
    if (m.name > last || (m.name === last && !including)) continue;
    fs.mkdirSync(path.join(dir, m.name));
    fs.writeFileSync(path.join(dir, m.name, "migration.sql"), m.sql);
  }
  return dir;
}

describe("the routing_modes migration", () => {
  it("turns apps that routed by fewest open (then called round_robin) into balanced, and assigns on reply", async () => {
    const db = await createPglite();
    const target = { url: "pglite:memory://", pglite: db };
    await migrate(target, migrationsUpTo(MINE, false));
    await db.exec(`INSERT INTO apps (name, routing) VALUES ('was rr', 'round_robin'), ('was off', 'off')`);
    expect(await migrate(target, migrationsUpTo(MINE, true))).toEqual([MINE]);
    const rows = await db.query<{ name: string; routing: string; assign_on_reply: boolean }>(
      `SELECT name, routing, assign_on_reply FROM apps ORDER BY name`,
    );
    expect(rows.rows).toEqual([
      { name: "was off", routing: "off", assign_on_reply: true },
      { name: "was rr", routing: "balanced", assign_on_reply: true },
    ]);
    await db.close();
  }, 120_000);
});
