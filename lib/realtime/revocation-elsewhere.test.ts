import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import { serverUrl } from "../db/testing";
import { it } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { runCli } from "../testing/cli";
import { makeApp, makeSession } from "../testing/factories";
import { watchDisconnect } from "../testing/socket";
import { spawnServer } from "../testing/spawn";
import { INTERNAL_CHANNEL } from "../eventlog/internal";
import type { TokenPairData } from "../sessions/schemas";

/**
 * A key revoked by another process (the CLI, or a second instance, without Redis): the sockets it opened on this
 * server close within a second of the revocation, and its API v3 access tokens are refused. On PostgreSQL only:
 * on the embedded database the CLI refuses to run beside a server, and no second instance can share it.
 */

async function accessToken(s: TestServer, key: string): Promise<string> {
  const r = await s.call("/api/v3/auth/token", {
    method: "POST",
    headers: { Authorization: `Token ${key}` },
    form: { grant_type: "api_key" },
  });
  expect(r.status, r.text).toBe(200);
  return (r.body.data as TokenPairData).access_token;
}

/** A key's socket, one opened with its access token, and when each closed. */
async function watched(s: TestServer, open: (auth: { token: string }) => Promise<Socket>, key: string) {
  const access = await accessToken(s, key);
  const sockets = [await open({ token: key }), await open({ token: access })];
  const closedAt: number[] = [];
  for (const x of sockets) x.once("disconnect", () => closedAt.push(Date.now()));
  return { access, dropped: sockets.map(watchDisconnect), closedAt };
}

/** When the revocation of `keyId` was logged (its transaction's start: before the commit). */
async function revokedAt(s: TestServer, keyId: bigint): Promise<number> {
  const rows = await s.db.eventLogEntry.findMany({
    where: { channel: INTERNAL_CHANNEL, payload: { path: ["names"], array_contains: [`key:${keyId}`] } },
  });
  expect(rows).toHaveLength(1);
  return rows[0]!.created.getTime();
}

describe.runIf(serverUrl())("access revoked by another process", () => {
  it(
    "the CLI's token:revoke: sockets closed within a second, access token refused once it returns",
    {
      timeout: 90_000,
    },
    async ({ server, sockets }) => {
      const a = await makeApp(server.db);
      const keyId = (await server.db.apiKey.findFirstOrThrow({ where: { appId: a.app.id } })).id;
      const w = await watched(server, sockets.open, a.token);
      const r = await runCli(["token:revoke", "--token", a.token], { DATABASE_URL: server.dbUrl });
      expect(r.code, r.stderr).toBe(0);

      const bearer = { headers: { Authorization: `Bearer ${w.access}` } };
      expect((await server.call("/api/v3/ping", bearer)).status).toBe(401);
      expect(
        (await server.call("/api/ping", { headers: { Authorization: `Token ${a.token}` } })).status,
      ).toBe(401);
      for (const d of w.dropped) expect(await d.within(0)).toBe("io server disconnect");
      const at = await revokedAt(server, keyId);
      for (const t of w.closedAt) expect(t - at).toBeLessThan(1000);
    },
  );

  it("a second instance, without Redis: the same", { timeout: 90_000 }, async ({ server, sockets }) => {
    const a = await makeApp(server.db);
    const keyId = (await server.db.apiKey.findFirstOrThrow({ where: { appId: a.app.id } })).id;
    await server.db.appAdmin.updateMany({ where: { appId: a.app.id }, data: { role: "owner" } });
    const owner = await makeSession(server.db, a.admin.id);
    const w = await watched(server, sockets.open, a.token);
    const other = spawnServer({ DATABASE_URL: server.dbUrl, SEED_DEMO: "0" });
    try {
      const r = await fetch(`${await other.ready}/api/apps/${a.app.id}/api_keys/${keyId}`, {
        method: "DELETE",
        headers: { cookie: owner.cookie, "x-csrf-token": owner.csrf },
      });
      expect(r.status).toBe(200);
      for (const d of w.dropped) expect(await d.within(1000)).toBe("io server disconnect");
      const at = await revokedAt(server, keyId);
      for (const t of w.closedAt) expect(t - at).toBeLessThan(1000);
      const bearer = { headers: { Authorization: `Bearer ${w.access}` } };
      expect((await server.call("/api/v3/ping", bearer)).status).toBe(401);
      expect(
        (await server.call("/api/ping", { headers: { Authorization: `Token ${a.token}` } })).status,
      ).toBe(401);
    } finally {
      other.child.kill("SIGTERM");
      await other.exited;
    }
  });
});
