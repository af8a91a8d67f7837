import type { Redis } from "ioredis";
import type { Config } from "../config/env";

/**
 * Token bucket per key: `rate` tokens a second, bursts up to `burst`. In memory for one instance; in Redis when
 * REDIS_URL is set, so every instance behind a load balancer draws from the same bucket.
 */
export interface Limiter {
  take(key: string): Promise<{ ok: boolean; retryAfter: number }>;
}

export function memoryLimiter(rate: number, burst: number, clock: () => number = Date.now): Limiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const now = clock();
      const b = buckets.get(key) ?? { tokens: burst, at: now };
      b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * rate);
      b.at = now;
      buckets.set(key, b);
      if (buckets.size > 100_000) buckets.clear();
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return Promise.resolve({ ok: true, retryAfter: 0 });
      }
      return Promise.resolve({ ok: false, retryAfter: Math.max(1, Math.ceil((1 - b.tokens) / rate)) });
    },
  };
}

const SCRIPT = `
local b = redis.call('HMGET', KEYS[1], 't', 'at')
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local t = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
t = math.min(burst, t + (now - at) / 1000 * rate)
local ok = 0
if t >= 1 then t = t - 1 ok = 1 end
redis.call('HSET', KEYS[1], 't', t, 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {ok, tostring(t)}`;

/** The bucket script as a command of its own: sent once, then called by its SHA (ioredis reloads it if Redis lost it). */
type WithTake = Redis & {
  rateLimitTake(key: string, rate: number, burst: number, now: number): Promise<[number, string]>;
};

function withTake(redis: Redis): WithTake {
  const r = redis as WithTake;
  if (typeof r.rateLimitTake !== "function")
    redis.defineCommand("rateLimitTake", { numberOfKeys: 1, lua: SCRIPT });
  return r;
}

export function redisLimiter(redis: Redis, rate: number, burst: number, fallback: Limiter): Limiter {
  const r = withTake(redis);
  return {
    async take(key) {
      // A Redis outage must not take the API down with it: fall back to this instance's own buckets.
      if (redis.status !== "ready") return fallback.take(key);
      try {
        const [ok, t] = await r.rateLimitTake(`rl:${key}`, rate, burst, Date.now());
        return ok === 1
          ? { ok: true, retryAfter: 0 }
          : { ok: false, retryAfter: Math.max(1, Math.ceil((1 - Number(t)) / rate)) };
      } catch {
        return fallback.take(key);
      }
    },
  };
}

export interface Verdict {
  ok: boolean;
  /** Seconds until the key is allowed again (0 when allowed). */
  retryAfter: number;
}

/**
 * Counts failures per key (failed logins by account and by address): `max` of them within `windowMs` lock the key
 * for `lockMs`, doubled at each further lockout (up to `maxLockMs`) while offences are remembered (`memoryMs`).
 * A success resets the key.
 */
export interface Lockout {
  check(key: string): Promise<Verdict>;
  fail(key: string): Promise<Verdict>;
  reset(key: string): Promise<void>;
}

export interface LockoutPolicy {
  max: number;
  windowMs: number;
  lockMs: number;
  maxLockMs: number;
  memoryMs: number;
}

interface Strikes {
  n: number;
  start: number;
  until: number;
  offences: number;
}

const verdictAt = (until: number, now: number): Verdict =>
  until > now ? { ok: false, retryAfter: Math.ceil((until - now) / 1000) } : { ok: true, retryAfter: 0 };

export function memoryLockout(policy: LockoutPolicy, clock: () => number = Date.now): Lockout {
  const keys = new Map<string, Strikes & { forget: number }>();
  const get = (key: string, now: number) => {
    const s = keys.get(key);
    if (s && s.forget > now) return s;
    keys.delete(key);
    return undefined;
  };
  return {
    check(key) {
      const now = clock();
      return Promise.resolve(verdictAt(get(key, now)?.until ?? 0, now));
    },
    fail(key) {
      const now = clock();
      const s = get(key, now) ?? { n: 0, start: now, until: 0, offences: 0, forget: 0 };
      if (s.until <= now) {
        if (now - s.start >= policy.windowMs) Object.assign(s, { n: 0, start: now });
        s.n += 1;
        if (s.n >= policy.max) {
          s.offences += 1;
          s.until = now + Math.min(policy.maxLockMs, policy.lockMs * 2 ** (s.offences - 1));
          Object.assign(s, { n: 0, start: now });
        }
        s.forget = Math.max(s.until, now) + policy.memoryMs;
      }
      if (keys.size > 100_000) keys.clear();
      keys.set(key, s);
      return Promise.resolve(verdictAt(s.until, now));
    },
    reset(key) {
      keys.delete(key);
      return Promise.resolve();
    },
  };
}

// The same steps as memoryLockout, atomically in Redis.
const LOCKOUT = `
local op, now = ARGV[1], tonumber(ARGV[2])
if op == 'reset' then redis.call('DEL', KEYS[1]) return 0 end
local s = redis.call('HMGET', KEYS[1], 'n', 'start', 'until', 'off')
local n, start, untl, off = tonumber(s[1]) or 0, tonumber(s[2]) or now, tonumber(s[3]) or 0, tonumber(s[4]) or 0
if op == 'fail' and untl <= now then
  local max, win, lock, maxlock, keep = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
  if now - start >= win then n = 0 start = now end
  n = n + 1
  if n >= max then
    off = off + 1
    untl = now + math.min(maxlock, lock * 2 ^ (off - 1))
    n = 0 start = now
  end
  redis.call('HSET', KEYS[1], 'n', n, 'start', start, 'until', untl, 'off', off)
  redis.call('PEXPIRE', KEYS[1], math.max(untl, now) - now + keep)
end
return untl`;

export function redisLockout(redis: Redis, policy: LockoutPolicy, fallback: Lockout): Lockout {
  const run = async (op: "check" | "fail" | "reset", key: string): Promise<Verdict | undefined> => {
    // As for the limiter: without Redis, this instance's own counts still protect it.
    if (redis.status !== "ready") return undefined;
    try {
      const now = Date.now();
      const { max, windowMs, lockMs, maxLockMs, memoryMs } = policy;
      const until = (await redis.eval(
        LOCKOUT,
        1,
        `lf:${key}`,
        op,
        now,
        max,
        windowMs,
        lockMs,
        maxLockMs,
        memoryMs,
      )) as number;
      return verdictAt(until, now);
    } catch {
      return undefined;
    }
  };
  return {
    check: async (key) => (await run("check", key)) ?? fallback.check(key),
    fail: async (key) => (await run("fail", key)) ?? fallback.fail(key),
    reset: async (key) => {
      await Promise.all([run("reset", key), fallback.reset(key)]);
    },
  };
}

const MINUTE = 60_000;

/** A per-visitor and a per-client-address budget for one kind of the messenger's public requests. */
export interface VisitorBudget {
  visitor: Limiter;
  address: Limiter;
}

/**
 * Typing and tracking from one address get this many visitors' budgets: an office or a carrier's NAT puts many
 * visitors behind one address, while one machine booting visitor after visitor gets no more than that.
 */
export const ADDRESS_VISITORS = 10;

/** Every limit the API enforces, shared through Redis when there is one. */
export interface Limits {
  /** Requests per token, session or anonymous address. */
  limiter: Limiter;
  /** Failed panel logins: per account (email) and per client address (an office shares one: it gets more). */
  logins: { account: Lockout; address: Lockout };
  /** Requests with an unknown API token, per client address: guessing tokens is throttled, valid ones are not. */
  badTokens: Limiter;
  /**
   * The messenger's public requests, per visitor (boot: per device) and per client address: anyone on the web can
   * make them, so they get tighter budgets than the general per-token limit. `writes`: boot, start, reply and
   * quick reply. `typing`: each one reaches every operator watching the app. `track`: each one is a stored event.
   */
  messenger: { writes: VisitorBudget; typing: VisitorBudget; track: VisitorBudget };
}

type LimitConfig = Pick<
  Config,
  | "rateLimitPerSecond"
  | "rateLimitBurst"
  | "loginMaxFailures"
  | "badTokensPerMinute"
  | "messengerVisitorPerMinute"
  | "messengerAddressPerMinute"
  | "messengerTypingPerMinute"
  | "messengerTrackPerMinute"
>;

export function makeLimits(config: LimitConfig, redis: Redis | undefined): Limits {
  const bucket = (rate: number, burst: number) => {
    const local = memoryLimiter(rate, burst);
    return redis ? redisLimiter(redis, rate, burst, local) : local;
  };
  const perMinute = (n: number) => bucket(n / 60, n);
  const lockout = (max: number) => {
    const policy = {
      max,
      windowMs: 15 * MINUTE,
      lockMs: 5 * MINUTE,
      maxLockMs: 60 * MINUTE,
      memoryMs: 24 * 60 * MINUTE,
    };
    const local = memoryLockout(policy);
    return redis ? redisLockout(redis, policy, local) : local;
  };
  const visitorBudget = (n: number): VisitorBudget => ({
    visitor: perMinute(n),
    address: perMinute(ADDRESS_VISITORS * n),
  });
  return {
    limiter: bucket(config.rateLimitPerSecond, config.rateLimitBurst),
    logins: { account: lockout(config.loginMaxFailures), address: lockout(3 * config.loginMaxFailures) },
    badTokens: perMinute(config.badTokensPerMinute),
    messenger: {
      writes: {
        visitor: perMinute(config.messengerVisitorPerMinute),
        address: perMinute(config.messengerAddressPerMinute),
      },
      typing: visitorBudget(config.messengerTypingPerMinute),
      track: visitorBudget(config.messengerTrackPerMinute),
    },
  };
}
