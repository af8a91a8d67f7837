import crypto from "node:crypto";
import type { Db } from "../db/client";
import { processWide } from "../config/process-wide";
import { Prisma } from "../db/generated/client";
import { isRevoked } from "./revoked";
import { revokeRefreshRows, withRevocations } from "./revocations";
import { isScope, SCOPES, type Scope } from "./scopes";

const PREFIX = "rly_";

export function hashToken(token: string): string {
  return crypto.hash("sha256", token, "hex");
}

/** A random secret with a recognisable prefix (so leaked tokens are easy to spot in logs and scanners). */
export function generateSecret(prefix = PREFIX): string {
  return prefix + crypto.randomBytes(32).toString("base64url");
}

export interface IssueApiKeyInput {
  appId: bigint;
  name?: string;
  scopes?: readonly Scope[];
  createdById?: bigint | null;
}

/**
 * Stores a new API key and returns its secret (the token callers will present) in clear exactly once; only its
 * hash is stored. Takes the client or a transaction, so a key can be created together with its app. The panel's
 * service around it, with its permission check, is createApiKey (lib/apps/api-keys.ts).
 */
export async function issueApiKey(db: Pick<Db, "apiKey">, input: IssueApiKeyInput) {
  const token = generateSecret();
  const record = await db.apiKey.create({
    data: {
      appId: input.appId,
      name: input.name ?? "",
      tokenHash: hashToken(token),
      prefix: token.slice(0, PREFIX.length + 6),
      scopes: [...(input.scopes ?? SCOPES)],
      createdById: input.createdById ?? null,
    },
  });
  return { token, record };
}

export interface ApiKeyAuth {
  apiKeyId: bigint;
  appId: bigint;
  scopes: Scope[];
}

const lastTouched = processWide("tokens.lastTouched", () => new Map<bigint, number>());
const TOUCH_EVERY_MS = 60_000;

// Every API call authenticates: a verified token is remembered for a few seconds, unless its key is revoked (the
// revoked set, which every instance's hub feeds: lib/auth/revocations.ts). One cache per process, not per copy of
// this module: under next dev each route bundle has its own copy, and a revoke in one left the others accepting.
const CACHE_MS = 5_000;
const verified = processWide(
  "tokens.verified",
  () => new Map<string, { auth: ApiKeyAuth; until: number; at: number }>(),
);

export async function verifyApiKey(db: Db, token: string): Promise<ApiKeyAuth | null> {
  if (!token.startsWith(PREFIX) || token.length > 200) return null;
  const hash = hashToken(token);
  const hit = verified.get(hash);
  if (hit && hit.until > Date.now() && !isRevoked([`key:${hit.auth.apiKeyId}`], hit.at)) return hit.auth;
  const rec = await db.apiKey.findUnique({
    where: { tokenHash: hash },
    select: { id: true, appId: true, scopes: true, revokedAt: true },
  });
  if (!rec || rec.revokedAt) {
    verified.delete(hash);
    return null;
  }
  // `last_used` is advisory: written at most once a minute per token so reads stay one query.
  const now = Date.now();
  if ((lastTouched.get(rec.id) ?? 0) + TOUCH_EVERY_MS < now) {
    lastTouched.set(rec.id, now);
    void db.apiKey
      .update({ where: { id: rec.id }, data: { lastUsed: new Date(now) } })
      .catch(() => undefined);
  }
  const auth = { apiKeyId: rec.id, appId: rec.appId, scopes: rec.scopes.filter(isScope) };
  if (verified.size > 10_000) verified.clear();
  // Whole seconds, as access tokens count: read in the revoking second, the key counts as revoked.
  verified.set(hash, { auth, until: Date.now() + CACHE_MS, at: Math.floor(now / 1000) });
  return auth;
}

/**
 * Revokes an API key named by its secret (the CLI) or by its ID in an app (the panel's revokeApiKey), with its v3
 * refresh tokens, and its access tokens and sockets on every instance (lib/auth/revocations.ts).
 */
export async function revokeApiKeyBy(db: Db, where: { token: string } | { id: bigint; appId: bigint }) {
  const filter =
    "token" in where
      ? Prisma.sql`token_hash = ${hashToken(where.token)}`
      : Prisma.sql`id = ${where.id} AND app_id = ${where.appId}`;
  return withRevocations(db, async (tx, revoke) => {
    const keys = await tx.$queryRaw<{ id: bigint }[]>`
      UPDATE api_tokens SET revoked_at = now() WHERE ${filter} AND revoked_at IS NULL RETURNING id`;
    for (const k of keys) await revokeRefreshRows(tx, Prisma.sql`api_token_id = ${k.id}`);
    revoke(keys.map((k) => `key:${k.id}`));
    return keys.length > 0;
  });
}
