import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { startServer, type RunningServer } from "../compose/start";
import { migrate } from "./migrate";
import { serverUrl } from "./testing";
import { makeApp, makeToken, makeUser, unique } from "../testing/factories";
import { startPgPair, pgServerInstalled, type PgPair } from "../testing/pg-clusters";

/**
 * DATABASE_REPLICA_URL against a real streaming replica (a primary and a standby of the test's own): heavy reads
 * served by it, a caller's read after their own write by the primary, a replica too far behind or stopped left
 * alone, with no error. In the PostgreSQL pass only (where PostgreSQL's server binaries are).
 */
const MAX_LAG_MS = 3000;
let pair: PgPair | undefined;
let server: RunningServer | undefined;

beforeAll(async () => {
  if (!serverUrl() || !pgServerInstalled()) return;
  pair = await startPgPair();
  const admin = new pg.Client({ connectionString: pair.primaryUrl("postgres") });
  await admin.connect();
  await admin.query("CREATE DATABASE relay");
  await admin.end();
  await migrate({ url: pair.primaryUrl("relay") });
  server = await startServer({
    config: {
      databaseUrl: pair.primaryUrl("relay"),
      databaseReplicaUrl: pair.replicaUrl("relay"),
      replicaMaxLagMs: MAX_LAG_MS,
      port: 0,
      host: "127.0.0.1",
      seedDemo: false,
      redisUrl: undefined,
    },
    log: () => undefined,
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  pair?.stop();
});

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${server!.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(name + " "));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

const servedBy = (where: string) => metric(`relay_replica_reads_total{served_by="${where}"}`);

async function until(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!serverUrl() || !pgServerInstalled())("a read replica (DATABASE_REPLICA_URL)", () => {
  it("serves heavy reads, not a caller's own just-written ones, and steps aside when behind or down", async () => {
    const s = server!;
    const { app, token: writer } = await makeApp(s.runtime.db);
    const reader = await makeToken(s.runtime.db, app.id);
    const user = await makeUser(s.runtime.db, app.id);
    const email = `${unique("lead")}@replica.test`;
    const call = async (token: string, path: string, init: RequestInit = {}) => {
      const r = await fetch(s.url + path, {
        ...init,
        headers: { authorization: `Token ${token}`, "content-type": "application/json" },
      });
      const body = (await r.json()) as { data: { total?: number } };
      expect(r.status, JSON.stringify(body)).toBe(200);
      return body;
    };
    const filters = JSON.stringify([{ property_name: "$email", type: "str_eq", value: { value: email } }]);
    const found = async (token: string) =>
      (await call(token, `/api/apps/${app.id}/users?filters=${encodeURIComponent(filters)}`)).data.total;
    const today = new Date().toISOString().slice(0, 10);
    const report = `/api/apps/${app.id}/reports/conversations?from=${today}&to=${today}`;
    await until("the replica has caught up", async () => (await metric("relay_replica_lag_seconds")) < 1);

    // Served by the replica: the leads list and a report.
    let replica = await servedBy("replica");
    expect(await found(reader)).toBe(0);
    await call(reader, report);
    expect(await servedBy("replica")).toBe(replica + 2);

    // The replica stops replaying: a write reaches the primary only.
    pair!.onReplica("SELECT pg_wal_replay_pause()");
    await call(writer, `/api/users/${user.id}/props`, {
      method: "POST",
      body: JSON.stringify({ operations: [{ op: "update_or_create", key: "$email", value: email }] }),
    });
    // Its writer reads it back at once (the primary); another caller still reads the replica, which lacks it.
    const primary = await servedBy("primary");
    expect(await found(writer)).toBe(1);
    expect(await servedBy("primary")).toBe(primary + 1);
    replica = await servedBy("replica");
    expect(await found(reader)).toBe(0);
    expect(await servedBy("replica")).toBe(replica + 1);

    // Too far behind: everyone reads the primary.
    await until(
      "the lag is seen",
      async () => (await metric("relay_replica_lag_seconds")) > MAX_LAG_MS / 1000,
    );
    expect(await found(reader)).toBe(1);

    // Replaying again, it serves again, with the write.
    pair!.onReplica("SELECT pg_wal_replay_resume()");
    await until("the replica has caught up", async () => (await metric("relay_replica_lag_seconds")) < 1);
    replica = await servedBy("replica");
    expect(await found(reader)).toBe(1);
    expect(await servedBy("replica")).toBe(replica + 1);

    // Stopped: the next reads go to the primary, with no error.
    pair!.stopReplica();
    for (let i = 0; i < 3; i++) expect(await found(reader)).toBe(1);
    await call(reader, report);
    expect(await metric("relay_replica_lag_seconds")).toBe(-1);
  }, 120_000);
});
