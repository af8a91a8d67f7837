import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeApp, makeUser } from "../testing/factories";
import { client } from "../testing/http";
import { ok } from "../users/testing";
import { presenceSweepJob } from "../users/presence";

describe("the server's jobs", () => {
  it("sweeps the presence of the apps that sent heartbeats to this process", async ({ server: s }) => {
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

  // Last: it closes the server (the fixture's close when the file ends then does nothing).
  it("are all started with the server and stopped with it, no timer left", async ({ server: s }) => {
    const before = s.server.jobs.idle();
    expect(Object.keys(before).sort()).toEqual(
      [
        "availability sweeper",
        "bulk job sweeper",
        "delay sweeper",
        "event log purge",
        "import sweeper",
        "presence sweeper",
        "webhook dispatcher",
      ].sort(),
    );
    expect(Object.values(before)).not.toContain(true);
    await s.close();
    expect(Object.values(s.server.jobs.idle())).not.toContain(false);
  });
});
