import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import { makeApp } from "../testing/factories";
import { revokeApiKeyBy, verifyApiKey } from "./tokens";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.close());

describe("verified tokens cache", () => {
  it("is one per process: a revoke in one copy of the module is seen by a second copy (Next bundles apart)", async () => {
    const { token } = await makeApp(t.db);
    vi.resetModules();
    const copy = await import("./tokens");
    expect(copy.verifyApiKey).not.toBe(verifyApiKey);
    // Both copies have verified (and would remember) the token before the revoke.
    expect(await verifyApiKey(t.db, token)).not.toBeNull();
    expect(await copy.verifyApiKey(t.db, token)).not.toBeNull();

    expect(await revokeApiKeyBy(t.db, { token })).toBe(true);
    expect(await copy.verifyApiKey(t.db, token)).toBeNull();
    expect(await verifyApiKey(t.db, token)).toBeNull();
  });
});
