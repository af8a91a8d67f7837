import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { startTestServer, type TestServer } from "../testing/server";
import { makeApp, makeToken } from "../testing/factories";
import { memoryLimiter, redisLimiter } from "./rate-limit";

describe("token bucket", () => {
  it("allows the burst, then refuses with a retry delay, then refills", async () => {
    // A fixed clock: a slow machine must not refill the bucket between the takes.
    let now = 1_000_000;
    const l = memoryLimiter(2, 3, () => now);
    const got = await Promise.all([1, 2, 3, 4].map(() => l.take("k")));
    expect(got.map((g) => g.ok)).toEqual([true, true, true, false]);
    expect(got[3]!.retryAfter).toBe(1);
    expect((await l.take("other")).ok).toBe(true);
    now += 400;
    expect((await l.take("k")).ok).toBe(false);
    now += 100;
    expect((await l.take("k")).ok).toBe(true);
  });

  it.runIf(process.env.REDIS_URL)("is shared by every instance through Redis", async () => {
    const r1 = new Redis(process.env.REDIS_URL!);
    const r2 = new Redis(process.env.REDIS_URL!);
    await Promise.all([r1, r2].map((r) => new Promise((ok) => r.once("ready", ok))));
    const key = `test-${Date.now()}-${Math.random()}`;
    const a = redisLimiter(r1, 0.001, 2, memoryLimiter(0.001, 2));
    const b = redisLimiter(r2, 0.001, 2, memoryLimiter(0.001, 2));
    const got = [await a.take(key), await b.take(key), await a.take(key)];
    expect(got.map((g) => g.ok)).toEqual([true, true, false]);
    r1.disconnect();
    r2.disconnect();
  });
});

describe("Throttled over HTTP", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitPerSecond: 0.5, rateLimitBurst: 3, redisUrl: undefined });
  });
  afterAll(async () => {
    await s.close();
  });

  it("answers 429 Throttled with Retry-After once a token's burst is spent, per token", async () => {
    const a = await makeApp(s.db);
    const path = `/api/apps/${a.app.id}/channels?auth_token=${a.token}`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await s.call(path)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const r = await s.call(path);
    expect(r.body.meta.error).toBe("Throttled");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const other = await makeToken(s.db, a.app.id);
    expect((await s.call(`/api/apps/${a.app.id}/channels?auth_token=${other}`)).status).toBe(200);
  });
});
