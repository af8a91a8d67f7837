import { describe, expect } from "vitest";
import { Redis } from "ioredis";
import { serverTest } from "../testing/server-test";
import { makeApp, makeToken } from "../testing/factories";
import { memoryLimiter, memoryLockout, redisLimiter, redisLockout } from "./rate-limit";

const it = serverTest({ rateLimitPerSecond: 0.5, rateLimitBurst: 3, redisUrl: undefined });

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
    // Redis forgot the script (a restart, SCRIPT FLUSH): loaded again, the bucket is still the shared one (this
    // instance's own fallback bucket would have a token left).
    await r1.script("FLUSH");
    expect((await b.take(key)).ok).toBe(false);
    r1.disconnect();
    r2.disconnect();
  });
});

describe("failure lockout", () => {
  const policy = { max: 2, windowMs: 10_000, lockMs: 1000, maxLockMs: 3000, memoryMs: 60_000 };

  it("locks after max failures in the window, longer at each offence, and a reset forgets", async () => {
    let now = 1_000_000;
    const l = memoryLockout(policy, () => now);
    const lockedFor = async () => {
      expect((await l.fail("k")).ok).toBe(true);
      const v = await l.fail("k");
      expect(v.ok).toBe(false);
      expect(await l.check("k")).toEqual(v);
      return v.retryAfter;
    };
    expect(await lockedFor()).toBe(1);
    now += 1000;
    expect((await l.check("k")).ok).toBe(true);
    expect(await lockedFor()).toBe(2);
    now += 2000;
    expect(await lockedFor()).toBe(3);
    now += 3000;
    // Capped at maxLockMs.
    expect(await lockedFor()).toBe(3);
    now += 3000;
    // Failures further apart than the window do not add up.
    await l.fail("k");
    now += 10_000;
    expect((await l.fail("k")).ok).toBe(true);
    // A reset forgets the offences too.
    await l.reset("k");
    expect(await lockedFor()).toBe(1);
  });

  it.runIf(process.env.REDIS_URL)("is shared by every instance through Redis", async () => {
    const r1 = new Redis(process.env.REDIS_URL!);
    const r2 = new Redis(process.env.REDIS_URL!);
    await Promise.all([r1, r2].map((r) => new Promise((ok) => r.once("ready", ok))));
    const key = `test-${Date.now()}-${Math.random()}`;
    const a = redisLockout(r1, policy, memoryLockout(policy));
    const b = redisLockout(r2, policy, memoryLockout(policy));
    expect((await a.fail(key)).ok).toBe(true);
    expect((await b.fail(key)).ok).toBe(false);
    expect((await a.check(key)).retryAfter).toBe(1);
    await b.reset(key);
    expect((await a.check(key)).ok).toBe(true);
    r1.disconnect();
    r2.disconnect();
  });
});

describe("Throttled over HTTP", () => {
  it("answers 429 Throttled with Retry-After once a token's burst is spent, per token", async ({
    server: s,
  }) => {
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
