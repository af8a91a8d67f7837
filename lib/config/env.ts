import path from "node:path";

// Every environment variable the product reads, in one place (the README's configuration table mirrors it).
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  dataDir: string;
  redisUrl: string | undefined;
  seedDemo: boolean;
  secret: string;
  publicUrl: string | undefined;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Failed logins per account in 15 minutes before a lockout (three times as many per client address). */
  loginMaxFailures: number;
  /** Requests with an unknown API token per client address and minute. */
  badTokensPerMinute: number;
  /** Messenger boots, new conversations and replies per visitor (boots: per device) and minute. */
  messengerVisitorPerMinute: number;
  /** The same per client address: a whole office's visitors share it. */
  messengerAddressPerMinute: number;
  /** Typing updates per visitor and minute (ten visitors' worth per client address). */
  messengerTypingPerMinute: number;
  /** Tracked events (page views and the site's own) per visitor and minute (ten visitors' worth per address). */
  messengerTrackPerMinute: number;
  webhookAllowPrivate: boolean;
  /** Test setting: the webhook dispatcher sends nothing for this long after start (a crash window to hit). */
  webhookDispatchDelayMs: number;
  /** The API version of a request that names none (`2` unless set; `3` makes v3 the default). */
  defaultApiVersion: string;
  /** Minutes without panel activity after which an Available operator is set Away (AWAY_AFTER). */
  awayAfterMinutes: number;
}

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  return !["0", "false", "no", "off", ""].includes(v.trim().toLowerCase());
}

function int(v: string | undefined, dflt: number): number {
  const n = v === undefined ? NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : dflt;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  return {
    port: int(env.PORT, 3000),
    host: env.HOST ?? "0.0.0.0",
    databaseUrl:
      env.DATABASE_URL && env.DATABASE_URL.length > 0 ? env.DATABASE_URL : `pglite://${dataDir}/db`,
    dataDir,
    redisUrl: env.REDIS_URL && env.REDIS_URL.length > 0 ? env.REDIS_URL : undefined,
    seedDemo: bool(env.SEED_DEMO, true),
    secret: env.APP_SECRET ?? "",
    publicUrl: env.PUBLIC_URL,
    rateLimitPerSecond: int(env.RATE_LIMIT_PER_SECOND, 50),
    rateLimitBurst: int(env.RATE_LIMIT_BURST, 200),
    loginMaxFailures: int(env.LOGIN_MAX_FAILURES, 10),
    badTokensPerMinute: int(env.BAD_TOKENS_PER_MINUTE, 30),
    messengerVisitorPerMinute: int(env.MESSENGER_VISITOR_PER_MINUTE, 30),
    messengerAddressPerMinute: int(env.MESSENGER_ADDRESS_PER_MINUTE, 300),
    // The frame sends one typing update per 3 s window while the visitor types, and a stop.
    messengerTypingPerMinute: Math.max(1, int(env.MESSENGER_TYPING_PER_MINUTE, 30)),
    messengerTrackPerMinute: Math.max(1, int(env.MESSENGER_TRACK_PER_MINUTE, 60)),
    webhookAllowPrivate: bool(env.WEBHOOK_ALLOW_PRIVATE, false),
    webhookDispatchDelayMs: int(env.WEBHOOK_DISPATCH_DELAY_MS, 0),
    defaultApiVersion: env.DEFAULT_API_VERSION?.trim() || "2",
    awayAfterMinutes: Math.max(1, int(env.AWAY_AFTER, 15)),
  };
}
