import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import { demoMessengerKey } from "./messenger-key";
import { seedDemo } from "./seed";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

describe("demoMessengerKey", () => {
  it("is undefined without a demo workspace, then the demo app's key, the same on each read", async () => {
    expect(await demoMessengerKey(t.db)).toBeUndefined();
    const seeded = await seedDemo(t.db, { users: 5, conversations: 2 });
    const key = await demoMessengerKey(t.db);
    expect(key).toMatch(/^mk_[A-Za-z0-9_-]{24}$/);
    expect(await demoMessengerKey(t.db)).toBe(key);
    const row = await t.db.messengerSettings.findUniqueOrThrow({ where: { appId: seeded!.appId } });
    expect(row.publicKey).toBe(key);
  });
});
