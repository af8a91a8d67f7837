import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseEnv, type Config, type Environment } from "./env";

/** Every default as the loader had them before the schema: an unset variable must still mean exactly this. */
const OLD_DEFAULTS: Config = {
  port: 3000,
  host: "0.0.0.0",
  databaseUrl: `pglite://${path.resolve("./data")}/db`,
  databaseReplicaUrl: undefined,
  dataDir: path.resolve("./data"),
  redisUrl: undefined,
  seedDemo: true,
  secret: "",
  publicUrl: undefined,
  rateLimitPerSecond: 50,
  rateLimitBurst: 200,
  loginMaxFailures: 10,
  badTokensPerMinute: 30,
  messengerVisitorPerMinute: 30,
  messengerAddressPerMinute: 300,
  messengerTypingPerMinute: 30,
  messengerTrackPerMinute: 60,
  webhookAllowPrivate: false,
  webhookDispatchDelayMs: 0,
  defaultApiVersion: "2",
  awayAfterMinutes: 15,
  trustedProxies: [],
  instanceName: undefined,
  metricsToken: undefined,
  logFormat: "json",
  email: {
    smtpUrl: undefined,
    dkim: undefined,
    domain: "localhost",
    inboundPort: undefined,
    inboundSecret: undefined,
    continuityDelay: 120,
  },
};

const problems = (env: Environment): string[] => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe("loadConfig", () => {
  it("keeps every default when nothing is set", () => {
    expect(loadConfig({})).toStrictEqual(OLD_DEFAULTS);
  });

  it("reads an empty value as unset, except a yes/no one, which it reads as no (as before)", () => {
    const empty = Object.fromEntries(Object.keys(parseEnv({})).map((k) => [k, ""]));
    expect(loadConfig(empty)).toStrictEqual({ ...OLD_DEFAULTS, seedDemo: false, webhookAllowPrivate: false });
  });

  it("reads good values, trimmed where numbers and yes/no are concerned", () => {
    const c = loadConfig({
      PORT: " 8080 ",
      HOST: "127.0.0.1",
      DATABASE_URL: "postgresql://relay@db:5432/relay",
      DATA_DIR: "/var/lib/relay",
      REDIS_URL: "rediss://cache:6380",
      SEED_DEMO: "Off",
      APP_SECRET: "s3cret",
      PUBLIC_URL: "https://relay.example.com",
      RATE_LIMIT_PER_SECOND: "100000",
      MESSENGER_TYPING_PER_MINUTE: "1",
      WEBHOOK_ALLOW_PRIVATE: "YES",
      WEBHOOK_DISPATCH_DELAY_MS: "3600000",
      DEFAULT_API_VERSION: " 3 ",
      AWAY_AFTER: "5",
    });
    expect(c).toStrictEqual({
      ...OLD_DEFAULTS,
      port: 8080,
      host: "127.0.0.1",
      databaseUrl: "postgresql://relay@db:5432/relay",
      dataDir: "/var/lib/relay",
      redisUrl: "rediss://cache:6380",
      seedDemo: false,
      secret: "s3cret",
      publicUrl: "https://relay.example.com",
      rateLimitPerSecond: 100000,
      messengerTypingPerMinute: 1,
      webhookAllowPrivate: true,
      webhookDispatchDelayMs: 3600000,
      defaultApiVersion: "3",
      awayAfterMinutes: 5,
      // The email domain follows PUBLIC_URL unless INBOUND_EMAIL_DOMAIN names one.
      email: { ...OLD_DEFAULTS.email, domain: "relay.example.com" },
    });
    const email = loadConfig({
      SMTP_URL: "smtps://u:p@mail.example.com:465",
      INBOUND_EMAIL_DOMAIN: " Mail.Example.COM ",
      SMTP_INBOUND_PORT: "2525",
      INBOUND_EMAIL_SECRET: "0123456789abcdef",
      EMAIL_CONTINUITY_DELAY: "0",
    }).email;
    expect(email).toStrictEqual({
      smtpUrl: "smtps://u:p@mail.example.com:465",
      dkim: undefined,
      domain: "mail.example.com",
      inboundPort: 2525,
      inboundSecret: "0123456789abcdef",
      continuityDelay: 0,
    });
    expect(loadConfig({ DATABASE_URL: "pglite:memory://" }).databaseUrl).toBe("pglite:memory://");
    for (const word of ["1", "true", "yes", "on", "TRUE"])
      expect(loadConfig({ SEED_DEMO: word }).seedDemo).toBe(true);
    for (const word of ["0", "false", "no", "off", "False"])
      expect(loadConfig({ SEED_DEMO: word }).seedDemo).toBe(false);
  });

  it("names every bad variable at once, with what was wrong and what is accepted", () => {
    expect(
      problems({
        PORT: "abc",
        RATE_LIMIT_BURST: "12abc",
        LOGIN_MAX_FAILURES: "-3",
        AWAY_AFTER: "0",
        MESSENGER_TRACK_PER_MINUTE: "1.5",
        SEED_DEMO: "maybe",
        PUBLIC_URL: "relay.example.com",
        DEFAULT_API_VERSION: "latest",
        HOST: "127.0.0.1",
      }),
    ).toEqual([
      'PORT: "abc" is not a whole number between 0 and 65535',
      'SEED_DEMO: "maybe" is not yes (1, true, yes, on) or no (0, false, no, off, empty)',
      'PUBLIC_URL: "relay.example.com" is not an http:// or https:// URL',
      'RATE_LIMIT_BURST: "12abc" is not a whole number between 1 and 1000000000',
      'LOGIN_MAX_FAILURES: "-3" is not a whole number between 1 and 1000000000',
      'MESSENGER_TRACK_PER_MINUTE: "1.5" is not a whole number between 1 and 1000000000',
      'DEFAULT_API_VERSION: "latest" is not an API version such as 2, 3 or 2.1.0',
      'AWAY_AFTER: "0" is not a whole number between 1 and 1000000000',
    ]);
    expect(problems({ PORT: "65536" })).toEqual(['PORT: "65536" is not a whole number between 0 and 65535']);
  });

  it("names a bad URL by its scheme alone: it may carry a password", () => {
    const found = problems({ DATABASE_URL: "mysql://relay:hunter2@db/relay", REDIS_URL: "redis-host:6379" });
    expect(found).toEqual([
      'DATABASE_URL: "mysql:…" is not a postgresql:// or pglite: URL',
      'REDIS_URL: "redis-host:…" is not a redis:// or rediss:// URL',
    ]);
    const err = (() => {
      try {
        loadConfig({ DATABASE_URL: "mysql://relay:hunter2@db/relay" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toBe(
      'Invalid environment:\n  DATABASE_URL: "mysql:…" is not a postgresql:// or pglite: URL',
    );
  });
});
