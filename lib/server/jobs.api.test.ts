import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/server";
import { makeApp, makeUser } from "../testing/factories";
import { client } from "../testing/http";
import { ok } from "../users/testing";
import { presenceSweepJob } from "../users/presence";

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

describe("the server's jobs", () => {
  it("sweeps the presence of the apps that sent heartbeats to this process", async () => {
    const a = await makeApp(s.db);
    const u = await makeUser(s.db, a.app.id);
    ok(await client(s, a.token).postJson(`/api/users/${u.id}/setpresence`, {}));
    await s.db.user.update({
      where: { id: u.id },
      data: { lastHeartbeat: new Date(Date.now() - 5 * 60_000) },
    });
    await presenceSweepJob.run(s.server.runtime);
    expect((await s.db.user.findUniqueOrThrow({ where: { id: u.id } })).presence).toBe("offline");
  });

  // Last: it closes the server (afterAll's close then does nothing).
  it("are all started with the server and stopped with it, no timer left", async () => {
    const before = s.server.jobs.idle();
    expect(Object.keys(before).sort()).toEqual(
      ["delay sweeper", "event log purge", "import sweeper", "presence sweeper", "webhook dispatcher"].sort(),
    );
    expect(Object.values(before)).not.toContain(true);
    await s.close();
    expect(Object.values(s.server.jobs.idle())).not.toContain(false);
  });
});
