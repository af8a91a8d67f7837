import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeApp, makeUser, unique } from "../testing/factories";
import { client } from "../testing/http";
import { ok } from "../users/testing";
import { presenceSweepJob } from "../users/presence";
import { ABANDONED_ERROR, IMPORT_JOB_KIND } from "../imports/run-import";
import { BULK_JOB_KIND } from "../bulk/run-bulk";

const noSignal = new AbortController().signal;

describe("the server's jobs", () => {
  it("sweeps the presence of the apps that sent heartbeats to this process", async ({ server: s }) => {
    const a = await makeApp(s.db);
    const u = await makeUser(s.db, a.app.id);
    ok(await client(s, a.token).postJson(`/api/users/${u.id}/setpresence`, {}));
    await s.db.user.update({
      where: { id: u.id },
      data: { lastHeartbeat: new Date(Date.now() - 5 * 60_000) },
    });
    await presenceSweepJob.run(s.server.runtime, {
      id: 0n,
      payload: null,
      attempts: 1,
      resumed: false,
      signal: noSignal,
    });
    expect((await s.db.user.findUniqueOrThrow({ where: { id: u.id } })).presence).toBe("offline");
  });

  it("fails an import whose holder crashed (its lease ran out), and removes its upload", async ({
    server: s,
  }) => {
    const { app } = await makeApp(s.db);
    const imp = await s.db.importJob.create({
      data: { appId: app.id, status: "running", mergeField: "$user_id" },
    });
    const file = path.join(os.tmpdir(), `${unique("relay-import")}.csv`);
    fs.writeFileSync(file, `$user_id,$name\n${unique("u")},Ann\n`);
    const payload = JSON.stringify({ jobId: String(imp.id), path: file, delimiter: "," });
    await s.db.$executeRaw`
      INSERT INTO jobs (queue, payload, status, attempts, lease_until)
      VALUES (${IMPORT_JOB_KIND}, ${payload}::jsonb, 'running', 1, now() - interval '1 second')`;
    await s.server.jobs.poll(IMPORT_JOB_KIND);
    expect(await s.db.importJob.findUniqueOrThrow({ where: { id: imp.id } })).toMatchObject({
      status: "failed",
      error: ABANDONED_ERROR,
      rowsProcessed: 0,
    });
    expect(await s.db.user.count({ where: { appId: app.id } })).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("resumes a bulk job whose holder crashed from its saved progress", async ({ server: s, app: a }) => {
    const ids: bigint[] = [];
    for (let k = 0; k < 4; k++) {
      const user = await makeUser(s.db, a.app.id);
      const c = ok<{ id: number }>(
        await a.api.postJson(`/api/users/${user.id}/startconversation`, { body: unique("hello") }),
      );
      ids.push(BigInt(c.id));
    }
    // The crashed holder had closed none, but saved two as processed: a resumed job goes on from the third.
    const job = await s.db.bulkJob.create({
      data: {
        appId: a.app.id,
        action: "close",
        status: "running",
        conversationIds: ids,
        total: 4,
        processed: 2,
        succeeded: 2,
      },
    });
    const payload = JSON.stringify({
      bulkJob: String(job.id),
      actor: { kind: "token", apiKeyId: "1", scopes: ["conversations-write"] },
    });
    await s.db.$executeRaw`
      INSERT INTO jobs (queue, payload, status, attempts, lease_until)
      VALUES (${BULK_JOB_KIND}, ${payload}::jsonb, 'running', 1, now() - interval '1 second')`;
    await s.server.jobs.poll(BULK_JOB_KIND);
    expect(await s.db.bulkJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "done",
      processed: 4,
      succeeded: 4,
      failed: 0,
    });
    const closed = await s.db.conversation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    expect(closed.map((c) => c.closed)).toEqual([false, false, true, true]);
  });

  // Last: it closes the server (the fixture's close when the file ends then does nothing).
  it("are all started with the server and stopped with it, no timer left", async ({ server: s }) => {
    const before = s.server.jobs.busy();
    expect(Object.keys(before).sort()).toEqual(
      [
        "availability sweeper",
        "bulk",
        "csat.email",
        "delay sweeper",
        "email.continuity",
        "email.notify",
        "email.operators",
        "email.send",
        "email.transcript",
        "event log purge",
        "import",
        "messages.consumer",
        "messages.send",
        "presence sweeper",
      ].sort(),
    );
    expect(Object.values(before)).not.toContain(false);
    expect(s.server.webhooks.busy()).toBe(true);
    await s.close();
    expect(Object.values(s.server.jobs.busy())).not.toContain(true);
    expect(s.server.webhooks.busy()).toBe(false);
  });
});
