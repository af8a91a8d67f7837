import path from "node:path";
import { envSchema, type Env } from "./env-schema";

/** The server's settings, from the environment (lib/config/env-schema.ts describes each variable). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** A streaming replica for heavy reads (lib/db/replica.ts). */
  databaseReplicaUrl: string | undefined;
  /** How far behind the replica may be and still serve (5 s; tests set their own). */
  replicaMaxLagMs?: number;
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
  email: EmailConfig;
  /** Balancers whose X-Forwarded-For is believed (lib/api/client-address.ts). */
  trustedProxies: string[];
  /** Starts socket.io session IDs, so a balancer can route long-polling to the instance holding the session. */
  instanceName: string | undefined;
  metricsToken: string | undefined;
  logFormat: "json" | "text";
}

/** The email channel's settings (lib/email). */
export interface EmailConfig {
  smtpUrl: string | undefined;
  dkim: { selector: string; privateKey: string } | undefined;
  /** The domain of app and reply addresses. */
  domain: string;
  inboundPort: number | undefined;
  inboundSecret: string | undefined;
  /** Seconds: the continuity delay of apps whose owners have not set one. */
  continuityDelay: number;
}

/** process.env, or the variables a test names (unset ones left out). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Bad environment variables, every one named with what was wrong and what is accepted: the server refuses to start. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** The variables, parsed and defaulted (lib/config/env-schema.ts); throws ConfigError naming every bad one. */
export function parseEnv(env: Environment = process.env): Env {
  const r = envSchema.safeParse(env);
  if (r.success) return r.data;
  throw new ConfigError(r.error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`));
}

export function loadConfig(env: Environment = process.env): Config {
  const e = parseEnv(env);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL ?? `pglite://${dataDir}/db`,
    databaseReplicaUrl: e.DATABASE_REPLICA_URL,
    dataDir,
    redisUrl: e.REDIS_URL,
    seedDemo: e.SEED_DEMO,
    secret: e.APP_SECRET,
    publicUrl: e.PUBLIC_URL,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    rateLimitBurst: e.RATE_LIMIT_BURST,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    badTokensPerMinute: e.BAD_TOKENS_PER_MINUTE,
    messengerVisitorPerMinute: e.MESSENGER_VISITOR_PER_MINUTE,
    messengerAddressPerMinute: e.MESSENGER_ADDRESS_PER_MINUTE,
    messengerTypingPerMinute: e.MESSENGER_TYPING_PER_MINUTE,
    messengerTrackPerMinute: e.MESSENGER_TRACK_PER_MINUTE,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    webhookDispatchDelayMs: e.WEBHOOK_DISPATCH_DELAY_MS,
    defaultApiVersion: e.DEFAULT_API_VERSION,
    awayAfterMinutes: e.AWAY_AFTER,
    trustedProxies: e.TRUSTED_PROXIES ? e.TRUSTED_PROXIES.split(",") : [],
    instanceName: e.INSTANCE_NAME,
    metricsToken: e.METRICS_TOKEN,
    logFormat: e.LOG_FORMAT === "text" ? "text" : "json",
    email: {
      smtpUrl: e.SMTP_URL,
      dkim:
        e.DKIM_SELECTOR && e.DKIM_PRIVATE_KEY
          ? { selector: e.DKIM_SELECTOR, privateKey: e.DKIM_PRIVATE_KEY }
          : undefined,
      domain: e.INBOUND_EMAIL_DOMAIN ?? (e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : "localhost"),
      inboundPort: e.SMTP_INBOUND_PORT,
      inboundSecret: e.INBOUND_EMAIL_SECRET,
      continuityDelay: e.EMAIL_CONTINUITY_DELAY,
    },
  };
}
