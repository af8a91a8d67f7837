import { describe, expect, vi } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { bootTestVisitor, warmUpVisitorApi } from "../messenger/testing";
import { watchDisconnect } from "../testing/socket";
import type { TokenPairData } from "../sessions/schemas";

/**
 * One refresh token sent eight times at once: one refresh wins, the others are reuses that revoke the family. The
 * winner's successor, inserted while the losers revoke, must be revoked with it, and so must the access token
 * issued with it. Only PostgreSQL runs the refreshes at once (PGlite runs one transaction at a time).
 */
const ROUNDS = 20;
const PARALLEL = 8;

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

interface Flavour {
  /** A fresh family: its first pair. */
  start: (s: TestServer, app: TestApp) => Promise<TokenPairData>;
  refresh: (s: TestServer, token: string) => ReturnType<TestServer["call"]>;
  /** A call authenticated by the family's access token. */
  use: (s: TestServer, access: string) => ReturnType<TestServer["call"]>;
}

const FLAVOURS: Record<string, Flavour> = {
  "API v3 (an API key's family)": {
    start: async (s, app) => {
      const r = await s.call("/api/v3/auth/token", {
        method: "POST",
        headers: { Authorization: `Token ${app.token}` },
        form: { grant_type: "api_key" },
      });
      expect(r.status, r.text).toBe(200);
      return r.body.data as TokenPairData;
    },
    refresh: (s, token) =>
      s.call("/api/v3/auth/token", {
        method: "POST",
        json: { grant_type: "refresh_token", refresh_token: token },
      }),
    use: (s, access) => s.call("/api/v3/ping", bearer(access)),
  },
  "the messenger (a visitor's family)": {
    start: async (s, app) => (await bootTestVisitor(s, app)).boot,
    refresh: (s, token) =>
      s.call("/api/v2/messenger/refresh", { method: "POST", json: { refresh_token: token } }),
    use: (s, access) => s.call("/api/v2/messenger/me", bearer(access)),
  },
};

it.beforeAll(warmUpVisitorApi);

describe("a refresh token used eight times at once", () => {
  for (const [name, f] of Object.entries(FLAVOURS)) {
    it(
      `${name}: after the reuse, no token of the family works`,
      { timeout: 120_000 },
      async ({ server, app }) => {
        vi.spyOn(console, "warn").mockImplementation(() => undefined);
        const leaks: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const first = await f.start(server, app);
          const answers = await Promise.all(
            Array.from({ length: PARALLEL }, () => f.refresh(server, first.refresh_token)),
          );
          const won = answers.filter((a) => a.status === 200).map((a) => a.body.data as TokenPairData);
          expect(won.length, "one refresh wins").toBeLessThanOrEqual(1);
          expect(answers.filter((a) => a.status === 401)).toHaveLength(PARALLEL - won.length);
          for (const pair of won) {
            if ((await f.refresh(server, pair.refresh_token)).status !== 401)
              leaks.push(`round ${round}: the winner's refresh token`);
            if ((await f.use(server, pair.access_token)).status !== 401)
              leaks.push(`round ${round}: the winner's access token`);
          }
          expect((await f.use(server, first.access_token)).status).toBe(401);
        }
        expect(leaks).toEqual([]);
      },
    );
  }
});

describe("a reuse ends the family's sockets too", () => {
  it("a visitor's socket opened with the family's access token closes within a second", async ({
    server,
    app,
    sockets,
  }) => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { boot } = await bootTestVisitor(server, app);
    const kept = await bootTestVisitor(server, app);
    const dropped = watchDisconnect(await sockets.open({ token: boot.access_token }));
    const other = await sockets.open({ token: kept.boot.access_token });
    const refresh = (token: string) =>
      server.call("/api/v2/messenger/refresh", { method: "POST", json: { refresh_token: token } });
    expect((await refresh(boot.refresh_token)).status).toBe(200);
    expect((await refresh(boot.refresh_token)).status).toBe(401);
    expect(await dropped.within(1000)).toBe("io server disconnect");
    // Another family's socket stays.
    expect(other.connected).toBe(true);
  });
});
