import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openDb, type DbHandle } from "../db/client";
import { migrate } from "../db/migrate";
import { serverUrl } from "../db/testing";
import { makeApp, makeSession } from "../testing/factories";
import { spawnServer, type Spawned } from "../testing/spawn";
import { hashToken } from "./tokens";

/**
 * API v3 across two instances on one PostgreSQL database and one Redis: an access token minted by one is verified
 * by the other (which loads the new key by its kid), and revoking the key through one stops the token on the other
 * at once (the revoked-subject broadcast), not after the token's 5 minutes.
 */
describe.runIf(serverUrl() && process.env.REDIS_URL)("API v3 tokens on two instances", () => {
  const name = `relay_v3_${process.pid}_${Date.now()}`;
  let h: DbHandle;
  let A: Spawned;
  let B: Spawned;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const u = new URL(serverUrl()!);
    u.pathname = `/${name}`;
    await migrate({ url: u.toString() });
    h = await openDb(u.toString());
    const env = { DATABASE_URL: u.toString(), REDIS_URL: process.env.REDIS_URL!, SEED_DEMO: "0" };
    A = spawnServer(env);
    B = spawnServer(env);
    await Promise.all([A.ready, B.ready]);
  }, 120_000);

  afterAll(async () => {
    for (const s of [A, B]) {
      s?.child.kill("SIGTERM");
      await s?.exited;
    }
    await h?.close();
    const admin = new pg.Client({ connectionString: serverUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it("verifies A's tokens on B, and a revoke through A stops them on B at once", async () => {
    const [aUrl, bUrl] = await Promise.all([A.ready, B.ready]);
    const app = await makeApp(h.db);
    const ex = await fetch(`${aUrl}/api/v3/auth/token`, {
      method: "POST",
      headers: { authorization: `Token ${app.token}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=api_key",
    });
    expect(ex.status).toBe(200);
    const { data } = (await ex.json()) as { data: { access_token: string; refresh_token: string } };
    const ping = async () =>
      (await fetch(`${bUrl}/api/v3/ping`, { headers: { authorization: `Bearer ${data.access_token}` } }))
        .status;
    expect(await ping()).toBe(200);

    const key = await h.db.apiKey.findUniqueOrThrow({ where: { tokenHash: hashToken(app.token) } });
    const op = await makeSession(h.db, app.admin.id);
    const del = await fetch(`${aUrl}/api/apps/${app.app.id}/api_keys/${key.id}`, {
      method: "DELETE",
      headers: { cookie: op.cookie, "x-csrf-token": op.csrf },
    });
    expect(del.status).toBe(200);
    const revokedAt = Date.now();
    while ((await ping()) === 200) {
      expect(Date.now() - revokedAt, "B still accepts the revoked key's access token").toBeLessThan(5_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await ping()).toBe(401);
    const refresh = await fetch(`${bUrl}/api/v3/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "refresh_token", refresh_token: data.refresh_token }),
    });
    expect(refresh.status).toBe(401);
  });
});
