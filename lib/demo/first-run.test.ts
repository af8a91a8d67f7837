import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/env";
import { createTestDb, type TestDb } from "../db/testing";
import { verifyApiKey } from "../auth/tokens";
import { seedOnFirstRun } from "./first-run";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

const runtime = (seedDemo: boolean) => ({ db: t.db, config: { ...loadConfig(), seedDemo } });

async function run(seedDemo: boolean): Promise<string> {
  const lines: string[] = [];
  await seedOnFirstRun(runtime(seedDemo), (line: string) => lines.push(line));
  return lines.join("\n");
}

describe("seedOnFirstRun", () => {
  it("does nothing when SEED_DEMO is off", async () => {
    expect(await run(false)).toBe("");
    expect(await t.db.app.count()).toBe(0);
  });

  it("seeds an empty database and prints the login and a working token once", async () => {
    const out = await run(true);
    expect(out).toContain("demo@example.com");
    expect(out).toContain("demo-password");
    expect(out).toContain("npm run cli -- token:create");
    const token = /rly_[A-Za-z0-9_-]+/.exec(out)?.[0];
    expect(token && (await verifyApiKey(t.db, token))).toBeTruthy();
  });

  it("prints only the login hint once data exists", async () => {
    const out = await run(true);
    expect(out).toMatch(/^Demo login: demo@example\.com/);
    expect(out).not.toMatch(/rly_/);
    expect(await t.db.app.count()).toBe(1);
  });
});
