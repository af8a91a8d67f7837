import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "@/lib/db/client";
import { createTestDb, type TestDb } from "@/lib/db/testing";
import { loadConfig } from "@/lib/config/env";
import { setRuntime, type Runtime } from "@/lib/server/runtime";
import { makeLimits } from "../server/rate-limit";
import { getHealth } from "./endpoints-health";

let up: TestDb;
let down: DbHandle;
beforeAll(async () => {
  up = await createTestDb();
  // A database on a loopback port where nothing listens: every query fails as in an outage.
  down = await openDb("postgresql://postgres@127.0.0.1:1/none");
});
afterAll(async () => {
  setRuntime(undefined);
  await down.close();
  await up.close();
});

/** Only what the health check and endpoint() read: the database, the real-time state, the rate limits. */
function runOn(db: Runtime["db"], dbKind: Runtime["dbKind"]) {
  setRuntime({
    ...makeLimits(loadConfig(), undefined),
    db,
    dbKind,
    realtime: { redis: "off" },
    afterCommit: [],
    startedAt: Date.now(),
  } as Partial<Runtime> as Runtime);
}

const GET = () =>
  getHealth.handle(new Request("http://localhost/api/health"), { params: Promise.resolve({}) });

describe("GET /api/health", () => {
  it("answers 503 with Retry-After (as every endpoint does) while the database is unreachable", async () => {
    runOn(down.db, down.kind);
    const res = await GET();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(((await res.json()) as { data: { database: { status: string } } }).data.database.status).toBe(
      "down",
    );
  });

  it("answers 200 without Retry-After when the database answers", async () => {
    runOn(up.db, up.kind);
    const res = await GET();
    expect(res.status).toBe(200);
    expect(res.headers.get("retry-after")).toBeNull();
  });
});
