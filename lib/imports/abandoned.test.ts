import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import { startServer } from "../compose/start";
import { makeApp, unique } from "../testing/factories";
import { ABANDONED_ERROR, failAbandonedImports } from "./abandoned";
import { runImport } from "./run-import";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

async function job(appId: bigint, status: string, heartbeat: Date) {
  return t.db.importJob.create({ data: { appId, status, mergeField: "$user_id", heartbeat } });
}

describe("abandoned imports", () => {
  it("fails pending and running jobs whose heartbeat stopped, and leaves the live and the finished alone", async () => {
    const { app } = await makeApp(t.db);
    const crashed = await job(app.id, "running", minutesAgo(5));
    const neverStarted = await job(app.id, "pending", minutesAgo(5));
    const live = await job(app.id, "running", new Date());
    const done = await job(app.id, "done", minutesAgo(60));

    const failed = await failAbandonedImports(t.db);
    expect(failed).toEqual(expect.arrayContaining([crashed.id, neverStarted.id]));
    expect(failed).not.toContain(live.id);
    expect(failed).not.toContain(done.id);

    const after = await t.db.importJob.findUniqueOrThrow({ where: { id: crashed.id } });
    expect(after).toMatchObject({ status: "failed", error: ABANDONED_ERROR });
    expect(after.finished).toBeInstanceOf(Date);
    expect((await t.db.importJob.findUniqueOrThrow({ where: { id: live.id } })).status).toBe("running");
    expect((await t.db.importJob.findUniqueOrThrow({ where: { id: done.id } })).status).toBe("done");
    // Idempotent: a second sweep finds nothing new.
    expect(await failAbandonedImports(t.db)).not.toContain(crashed.id);
  });

  it("a process still holding a job the sweeper failed neither runs it nor overwrites the verdict", async () => {
    const { app } = await makeApp(t.db);
    const j = await job(app.id, "pending", minutesAgo(5));
    await failAbandonedImports(t.db);
    const file = path.join(os.tmpdir(), `${unique("relay-import")}.csv`);
    fs.writeFileSync(file, `$user_id,$name\n${unique("u")},Ann\n`);
    await runImport(t.db, {
      jobId: j.id,
      appId: app.id,
      path: file,
      delimiter: ",",
      mergeField: "$user_id",
      tags: [],
    });
    expect(await t.db.importJob.findUniqueOrThrow({ where: { id: j.id } })).toMatchObject({
      status: "failed",
      error: ABANDONED_ERROR,
      rowsProcessed: 0,
    });
    expect(await t.db.user.count({ where: { appId: app.id } })).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("is swept when the server starts, before it answers", async () => {
    const { app } = await makeApp(t.db);
    const crashed = await job(app.id, "running", minutesAgo(5));
    const server = await startServer({
      db: t,
      config: { databaseUrl: t.url, port: 0, host: "127.0.0.1", seedDemo: false },
      log: () => undefined,
    });
    try {
      expect((await t.db.importJob.findUniqueOrThrow({ where: { id: crashed.id } })).status).toBe("failed");
    } finally {
      await server.close();
    }
  });
});
