import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { migrate } from "../db/migrate";
import { serverUrl } from "../db/testing";
import { unique } from "../testing/factories";
import { spawnServer, type Spawned } from "../testing/spawn";

/**
 * Two deployments (each its own database) on one Redis, as two products on one host, or the e2e suite's servers,
 * are: the limits one keeps there (unknown tokens per address here) never count against the other.
 */
describe.runIf(serverUrl() && process.env.REDIS_URL)("two deployments on one Redis", () => {
  const names = [1, 2].map((i) => `relay_dep${i}_${process.pid}_${Date.now()}`);
  const servers: Spawned[] = [];

  const onServer = async (sql: string) => {
    const admin = new pg.Client({ connectionString: serverUrl() });
    await admin.connect();
    await admin.query(sql);
    await admin.end();
  };

  beforeAll(async () => {
    for (const name of names) {
      await onServer(`CREATE DATABASE "${name}"`);
      const u = new URL(serverUrl()!);
      u.pathname = `/${name}`;
      await migrate({ url: u.toString() });
      servers.push(
        spawnServer({
          DATABASE_URL: u.toString(),
          REDIS_URL: process.env.REDIS_URL!,
          SEED_DEMO: "0",
          BAD_TOKENS_PER_MINUTE: "5",
        }),
      );
    }
    await Promise.all(servers.map((s) => s.ready));
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) {
      s.child.kill("SIGTERM");
      await s.exited;
    }
    for (const name of names) await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it("keep their own counts of unknown tokens from one address", async () => {
    const [a, b] = await Promise.all(servers.map((s) => s.ready));
    const guess = async (base: string | undefined) =>
      (await fetch(`${base}/api/apps/1/channels`, { headers: { authorization: `Token rly_${unique("g")}` } }))
        .status;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await guess(a));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(await guess(b)).toBe(401);
  });
});
