import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/env";
import { createTestDb, type TestDb } from "../db/testing";
import { verifyApiKey } from "../auth/tokens";
import { seedOnFirstRun } from "./first-run";
import type { Runtime } from "../server/runtime";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

// What seeding reads of a runtime: the database and the configuration (no server, no runner).
const runtime = (seedDemo: boolean) =>
  ({ db: t.db, config: { ...loadConfig(), seedDemo }, afterCommit: [] }) as unknown as Runtime;

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

  it("tells the email channel's story: the reply emailed (not sent, no SMTP) and the answer by mail back in", async () => {
    const user = await t.db.user.findFirstOrThrow({ where: { email: "lena.fischer@example.com" } });
    const conv = await t.db.conversation.findFirstOrThrow({ where: { userId: user.id } });
    const emails = await t.db.email.findMany({ where: { conversationId: conv.id } });
    expect(emails.map((e) => [e.state, e.lastError])).toEqual([
      ["not_sent", "no SMTP server configured (SMTP_URL)"],
    ]);
    const parts = await t.db.conversationPart.findMany({
      where: { conversationId: conv.id },
      orderBy: { id: "asc" },
    });
    expect(parts.map((p) => [p.type, p.sentVia])).toEqual([
      ["reply_user", "web_user"],
      // The operator's reply takes the unassigned conversation (assign_on_reply).
      ["assigned", "web_admin"],
      ["reply_admin", "web_admin"],
      ["reply_user", "email"],
    ]);
    expect(parts.at(-1)!.body).toBe("Great, thank you! I will order tonight.");
  });

  it("prints only the login hint once data exists", async () => {
    const out = await run(true);
    expect(out).toMatch(/^Demo login: demo@example\.com/);
    expect(out).not.toMatch(/rly_/);
    expect(await t.db.app.count()).toBe(1);
  });
});
