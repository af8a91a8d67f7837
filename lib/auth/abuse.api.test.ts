import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../testing/server";
import { makeAdmin, makeApp, TEST_PASSWORD, unique } from "../testing/factories";
import { openSocket } from "../testing/socket";

/** Servers of their own, counting in memory: no other test file's failures (through a shared Redis) count here. */
const limits = { loginMaxFailures: 3, badTokensPerMinute: 5, redisUrl: undefined };

function login(s: TestServer, email: string, password: string) {
  return s.call("/api/auth/login", { method: "POST", json: { email, password } });
}

describe("failed panel logins", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(limits);
  });
  afterAll(async () => {
    await s.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("lock the account after the limit with 429 and Retry-After, even for the right password", async () => {
    const admin = await makeAdmin(s.db);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await login(s, admin.email, "wrong")).status);
    expect(statuses).toEqual([401, 401, 401]);

    const r = await login(s, admin.email, TEST_PASSWORD);
    expect(r.status).toBe(429);
    expect(r.body.meta.error).toBe("Throttled");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(60);
    // One line per refusal, with the address and the reason, never the email itself.
    const lines = warn.mock.calls.map((c) => String(c[0]));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^login refused: account=[0-9a-f]{16} ip=\S+ reason=wrong password$/);
    expect(lines[3]).toMatch(/reason=throttled$/);
    expect(lines.join("\n")).not.toContain(admin.email);
    // Another account from the same address is not locked by this one.
    expect((await login(s, (await makeAdmin(s.db)).email, TEST_PASSWORD)).status).toBe(200);
  });

  it("are forgotten for the account after a successful login", async () => {
    const admin = await makeAdmin(s.db);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) expect((await login(s, admin.email, "wrong")).status).toBe(401);
      expect((await login(s, admin.email, TEST_PASSWORD)).status).toBe(200);
    }
  });
});

describe("failed logins from one address", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(limits);
  });
  afterAll(async () => {
    await s.close();
  });

  it("lock the address (three times the account limit) for every account, unknown emails included", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await login(s, `${unique("nobody")}@example.test`, "x")).status);
    expect(statuses).toEqual([...Array<number>(9).fill(401), 429]);
    const r = await login(s, (await makeAdmin(s.db)).email, TEST_PASSWORD);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(60);
    vi.restoreAllMocks();
  });
});

describe("unknown API tokens from one address", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(limits);
  });
  afterAll(async () => {
    await s.close();
  });

  it("are answered 429 with Retry-After past the limit, through the API and the socket; valid ones still work", async () => {
    const a = await makeApp(s.db);
    const path = `/api/apps/${a.app.id}/channels`;
    const guess = () => s.call(path, { headers: { authorization: `Token rly_${unique("guess")}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await guess()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const r = await guess();
    expect(r.body.meta.error).toBe("Throttled");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await expect(openSocket(s.url, { token: "rly_nope" })).rejects.toThrow(/Throttled/);

    expect((await s.call(path, { headers: { authorization: `Token ${a.token}` } })).status).toBe(200);
    const socket = await openSocket(s.url, { token: a.token });
    socket.disconnect();
  });
});
