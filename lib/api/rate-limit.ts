import { Redis } from "ioredis";

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

export function redisLimiter(redis: Redis, rate: number, burst: number, fallback: Limiter): Limiter {
  return {
    async take(key) {
      // A Redis outage must not take the API down with it: fall back to this instance's own buckets.
      if (redis.status !== "ready") return fallback.take(key);
      try {
        const [ok, t] = (await redis.eval(SCRIPT, 1, `rl:${key}`, rate, burst, Date.now())) as [
          number,
          string,
        ];
        return ok === 1
          ? { ok: true, retryAfter: 0 }
          : { ok: false, retryAfter: Math.max(1, Math.ceil((1 - Number(t)) / rate)) };
      } catch {
        return fallback.take(key);
      }
    },
  };
}
