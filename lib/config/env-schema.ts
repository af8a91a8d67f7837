import { z } from "zod";
import { isIP } from "node:net";

/** What the README's configuration table says of a variable (lib/config/env-table.ts renders it). */
export interface EnvDoc {
  /** The Default cell, markdown: a literal in backquotes, or words ("embedded", "unset"). */
  shown: string;
  /** The values accepted, as the refusal of a bad one words them. */
  accepts: string;
  description: string;
}

export const envDocs = z.registry<EnvDoc>();

/** Every whole-number setting but PORT: counts per minute, rates, minutes, milliseconds. */
const MAX_WHOLE = 1_000_000_000;

/** A value's parser: the string given, or an issue saying the value is not `accepts`. */
interface Kind<T> {
  accepts: string;
  parse: (raw: string) => T | undefined;
  /** A value never repeated in a message (a URL may carry a password). */
  secret?: boolean;
}

const wholeNumber = (min: number, max = MAX_WHOLE): Kind<number> => ({
  accepts: `a whole number between ${min} and ${max}`,
  parse: (raw) => {
    const s = raw.trim();
    const n = /^[0-9]+$/.test(s) ? Number(s) : NaN;
    return n >= min && n <= max ? n : undefined;
  },
});

// The words read as no are those the product has always read so; a value in neither list (a typo) is refused
// rather than read as yes.
const FALSE = ["0", "false", "no", "off", ""];
const TRUE = ["1", "true", "yes", "on"];
const flag: Kind<boolean> = {
  accepts: "yes (1, true, yes, on) or no (0, false, no, off, empty)",
  parse: (raw) => {
    const s = raw.trim().toLowerCase();
    return TRUE.includes(s) ? true : FALSE.includes(s) ? false : undefined;
  },
};

/** Whether `entry` is an address or CIDR range TRUSTED_PROXIES accepts. */
export function isProxyEntry(entry: string): boolean {
  const [address = "", bits, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = /^[0-9]{1,3}$/.test(bits) ? Number(bits) : NaN;
  return n >= 0 && n <= (family === 4 ? 32 : 128);
}

const text: Kind<string> = { accepts: "any text", parse: (raw) => raw };

/** By its scheme: the drivers parse the rest, some of it (a socket directory as host) beyond WHATWG URLs. */
const url = (accepts: string, scheme: RegExp, secret = true): Kind<string> => ({
  accepts,
  secret,
  parse: (raw) => (scheme.test(raw) ? raw : undefined),
});

const webUrl: Kind<string> = {
  accepts: "an http:// or https:// URL",
  parse: (raw) => (/^https?:\/\//.test(raw) && URL.canParse(raw) ? raw : undefined),
};

const quoted = (raw: string, secret?: boolean) => {
  if (!secret) return JSON.stringify(raw);
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(raw)?.[0];
  return scheme ? `"${scheme}…"` : "the value given";
};

function parsed<T>(kind: Kind<T>) {
  return z.string().transform((raw, ctx): T => {
    const v = kind.parse(raw);
    if (v !== undefined) return v;
    ctx.addIssue({ code: "custom", message: `${quoted(raw, kind.secret)} is not ${kind.accepts}` });
    return z.NEVER;
  });
}

// An empty value is unset: it takes the default (a yes/no variable aside: there empty is no, as it always was).
const emptyIsUnset = (v: unknown) => (v === "" ? undefined : v);

type Doc = Pick<EnvDoc, "description"> & Partial<Pick<EnvDoc, "shown">>;

/** A variable with a default, which is parsed as a value given would be. */
function setting<T extends string | number>(kind: Kind<T>, dflt: T, doc: Doc) {
  return z
    .preprocess((v) => emptyIsUnset(v) ?? String(dflt), parsed(kind))
    .register(envDocs, { shown: `\`${dflt}\``, accepts: kind.accepts, ...doc });
}

/** A variable whose absence means something of its own (`shown` says what). */
function optional<T>(kind: Kind<T>, doc: Required<Doc>) {
  return z
    .preprocess(emptyIsUnset, parsed(kind).optional())
    .register(envDocs, { accepts: kind.accepts, ...doc });
}

/** A yes/no variable: an empty value is no, as the product has always read it. */
function yesNo(dflt: boolean, description: string) {
  return parsed(flag)
    .default(dflt)
    .register(envDocs, { shown: dflt ? "`1`" : "`0`", accepts: flag.accepts, description });
}

const perMinute = (dflt: number, description: string) => setting(wholeNumber(1), dflt, { description });

/**
 * Every environment variable the product reads: its type, accepted values, default and meaning. Parsing reports every
 * bad variable at once (lib/config/env.ts); the README's configuration table is rendered from it.
 */
export const envSchema = z.object({
  PORT: setting(wholeNumber(0, 65535), 3000, { description: "HTTP port (pages, `/api`, `/socket.io`)" }),
  HOST: setting(text, "0.0.0.0", { description: "Interface to listen on" }),
  DATABASE_URL: optional(url("a postgresql:// or pglite: URL", /^(postgres(ql)?:\/\/|pglite:)/), {
    shown: "embedded",
    description:
      "`postgresql://user@host:5432/db` for a PostgreSQL server; `pglite:memory://` for a throw-away in-memory " +
      "database; unset: embedded PostgreSQL (PGlite) in `DATA_DIR`",
  }),
  DATABASE_REPLICA_URL: optional(url("a postgresql:// URL", /^postgres(ql)?:\/\//), {
    shown: "unset",
    description:
      "A streaming replica of `DATABASE_URL`: leads lists and counts, exports, reports and search read from it " +
      "while it is less than 5 s behind (a caller's reads stay on the primary for 6 s after their own write)",
  }),
  DATA_DIR: setting(text, "./data", { description: "Where the embedded database lives" }),
  REDIS_URL: optional(url("a redis:// or rediss:// URL", /^rediss?:\/\//), {
    shown: "unset",
    description: "`redis://host:6379`: socket.io Redis adapter and shared rate limits (several instances)",
  }),
  SEED_DEMO: yesNo(true, "`0` starts with an empty database instead of the demo workspace"),
  APP_SECRET: setting(text, "", {
    shown: "generated",
    description: "Secret for signed attachment URLs; when set, also seals the API v3 signing keys at rest",
  }),
  PUBLIC_URL: optional(webUrl, {
    shown: "request origin",
    description: "External base URL (for links in webhooks)",
  }),
  RATE_LIMIT_PER_SECOND: setting(wholeNumber(1), 50, { description: "Requests per second per API token" }),
  RATE_LIMIT_BURST: setting(wholeNumber(1), 200, { description: "Burst size per API token" }),
  LOGIN_MAX_FAILURES: setting(wholeNumber(1), 10, {
    description:
      "Failed panel logins per account in 15 minutes before a lockout (5 minutes, doubling on repeat; an address " +
      "gets three times as many)",
  }),
  BAD_TOKENS_PER_MINUTE: perMinute(
    30,
    "Requests with an unknown API token per client address and minute before 429",
  ),
  MESSENGER_VISITOR_PER_MINUTE: perMinute(
    30,
    "Messenger boots (per device), new conversations and replies per visitor and minute before 429",
  ),
  MESSENGER_ADDRESS_PER_MINUTE: perMinute(300, "The same per client address"),
  MESSENGER_TYPING_PER_MINUTE: perMinute(
    30,
    "Messenger typing updates per visitor and minute before 429 (the messenger sends one per 3 s while the " +
      "visitor types); ten times as many per client address",
  ),
  MESSENGER_TRACK_PER_MINUTE: perMinute(
    60,
    "Messenger tracked events (page views and the site's `track` calls) per visitor and minute before 429; ten " +
      "times as many per client address",
  ),
  WEBHOOK_ALLOW_PRIVATE: yesNo(false, "`1` allows webhook URLs on loopback and private networks (tests)"),
  WEBHOOK_DISPATCH_DELAY_MS: setting(wholeNumber(0), 0, {
    description: "The webhook dispatcher sends nothing for this long after start (tests)",
  }),
  DEFAULT_API_VERSION: setting(
    {
      accepts: "an API version such as 2, 3 or 2.1.0",
      parse: (raw) => (/^v?[0-9]+(\.[0-9]+){0,2}$/i.test(raw.trim()) ? raw.trim() : undefined),
    },
    "2",
    { description: "The API version of requests that name none (`3` makes v3 the default)" },
  ),
  AWAY_AFTER: setting(wholeNumber(1), 15, {
    description: "Minutes without panel activity after which an Available operator is set Away",
  }),
  SMTP_URL: optional(url("an smtp:// or smtps:// URL", /^smtps?:\/\//), {
    shown: "unset",
    description:
      "`smtp://user:pass@host:587` or `smtps://…`: where emails go; unset: they are composed and stored, shown " +
      "in Settings → Email as not sent",
  }),
  DKIM_SELECTOR: optional(text, {
    shown: "unset",
    description:
      "With `DKIM_PRIVATE_KEY`: outgoing emails are DKIM-signed as this selector of the sender's domain",
  }),
  DKIM_PRIVATE_KEY: optional(
    {
      accepts: "a PEM private key",
      secret: true,
      parse: (raw) => (raw.includes("PRIVATE KEY") ? raw : undefined),
    },
    { shown: "unset", description: "The DKIM signing key, PEM" },
  ),
  INBOUND_EMAIL_DOMAIN: optional(
    {
      accepts: "a domain name",
      parse: (raw) => {
        const s = raw.trim().toLowerCase();
        return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(s) ? s : undefined;
      },
    },
    {
      shown: "`PUBLIC_URL`'s host, else `localhost`",
      description:
        "The domain of the apps' addresses (`app-<id>@…`) and of reply addresses (`reply+<token>@…`): its MX " +
        "points at the SMTP listener, or its provider forwards to `/api/email/inbound`",
    },
  ),
  SMTP_INBOUND_PORT: optional(wholeNumber(0, 65535), {
    shown: "unset",
    description: "Port of the built-in SMTP listener for mail to `INBOUND_EMAIL_DOMAIN`; unset: no listener",
  }),
  INBOUND_EMAIL_SECRET: optional(
    { accepts: "at least 16 characters", secret: true, parse: (raw) => (raw.length >= 16 ? raw : undefined) },
    {
      shown: "unset",
      description:
        "Bearer secret of `POST /api/email/inbound` (raw MIME from a mail provider); unset: that endpoint is off",
    },
  ),
  EMAIL_CONTINUITY_DELAY: setting(wholeNumber(0, 86_400), 120, {
    description:
      "Seconds an operator's reply stays unread before the visitor gets it by email (new apps' default)",
  }),
  TRUSTED_PROXIES: setting(
    {
      accepts: "addresses or CIDR ranges, comma-separated",
      parse: (raw) => {
        const entries = raw
          .split(",")
          .map((e) => e.trim())
          .filter(Boolean);
        return entries.every(isProxyEntry) ? entries.join(",") : undefined;
      },
    },
    "",
    {
      shown: "unset",
      description:
        "The load balancers (`127.0.0.1`, `10.0.0.0/8`) whose `X-Forwarded-For` names the client for rate " +
        "limits and login lockouts; from anyone else the header is ignored",
    },
  ),
  INSTANCE_NAME: optional(
    {
      accepts: "1 to 16 lowercase letters, digits or dashes",
      parse: (raw) => (/^[a-z0-9-]{1,16}$/.test(raw.trim()) ? raw.trim() : undefined),
    },
    {
      shown: "unset",
      description:
        "This instance's name behind a balancer: it starts socket.io session IDs (`a.…`), which the nginx " +
        "configuration routes long-polling by (docs/deploy.md), and labels logs and metrics",
    },
  ),
  METRICS_TOKEN: optional(
    { accepts: "at least 16 characters", secret: true, parse: (raw) => (raw.length >= 16 ? raw : undefined) },
    {
      shown: "unset",
      description: "Bearer token of `/metrics`; unset: `/metrics` answers loopback clients only",
    },
  ),
  LOG_FORMAT: setting(
    {
      accepts: "json or text",
      parse: (raw) => (raw === "json" || raw === "text" ? raw : undefined),
    },
    "json",
    {
      description:
        "One line per request and event: `json` for log collectors, `text` to read (`npm run dev`)",
    },
  ),
  // Read by next.config.js and scripts/start.ts, not by the server's Config.
  NEXT_DIST_DIR: setting(text, ".next", { description: "Build output directory" }),
});

export type Env = z.output<typeof envSchema>;
