import crypto from "node:crypto";
import type { Db } from "../db/client";
import { processWide } from "../config/process-wide";
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

// Every API call authenticates: a verified token is remembered for a few seconds. A revoke on this instance
// forgets it at once; other instances stop accepting it within CACHE_MS. One cache per process, not per copy of
// this module: under next dev each route bundle has its own copy, and a revoke in one left the others accepting.
const CACHE_MS = 5_000;
const verified = processWide("tokens.verified", () => new Map<string, { auth: ApiKeyAuth; until: number }>());

export async function verifyApiKey(db: Db, token: string): Promise<ApiKeyAuth | null> {
  if (!token.startsWith(PREFIX) || token.length > 200) return null;
  const hash = hashToken(token);
  const hit = verified.get(hash);
  if (hit && hit.until > Date.now()) return hit.auth;
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
  verified.set(hash, { auth, until: Date.now() + CACHE_MS });
  return auth;
}

/** Revokes an API key named by its secret (the CLI) or by its ID in an app (the panel's revokeApiKey). */
export async function revokeApiKeyBy(db: Db, where: { token: string } | { id: bigint; appId: bigint }) {
  const filter =
    "token" in where ? { tokenHash: hashToken(where.token) } : { id: where.id, appId: where.appId };
  if ("token" in where) verified.delete(hashToken(where.token));
  else for (const [h, v] of verified) if (v.auth.apiKeyId === where.id) verified.delete(h);
  const res = await db.apiKey.updateMany({
    where: { ...filter, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  // Its v3 refresh tokens die with it (its access tokens: disconnectApiKey in lib/auth/disconnect.ts, or within
  // their lifetime).
  const ids = await db.apiKey.findMany({ where: filter, select: { id: true } });
  await db.refreshToken.updateMany({
    where: { apiKeyId: { in: ids.map((t) => t.id) }, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return res.count > 0;
}
