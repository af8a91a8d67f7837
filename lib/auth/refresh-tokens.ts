import crypto from "node:crypto";
import type { Db } from "../db/client";
import { sqlOf } from "../db/sql";
import { wrongCredentials } from "../domain/errors";
import { ACCESS_TTL_SECONDS, REFRESH_TTL_SECONDS } from "./jwt-config";
import { signAccessToken, type Subject } from "./jwt";
import { revokeAccess } from "./revoked";
import { isScope } from "./scopes";
import { generateSecret, hashToken } from "./tokens";

const PREFIX = "rlr_";

/** What every v3 token-generating method answers (in the envelope's `data`). */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  expires_in: number;
}

async function pair(db: Db, subject: Subject, family: string, parentId: bigint | null): Promise<TokenPair> {
  const refresh = generateSecret(PREFIX);
  // On the driver: a messenger boot issues a pair on every page view (lib/messenger/boot.ts).
  await sqlOf(db).$executeRaw`
    INSERT INTO refresh_tokens (token_hash, family_id, parent_id, api_token_id, admin_id, user_id, session_id,
      expires_at)
    VALUES (${hashToken(refresh)}, ${family}, ${parentId}::int8, ${subject.kind === "key" ? subject.apiKeyId : null}::int8,
      ${subject.kind === "admin" ? subject.adminId : null}::int8, ${subject.kind === "visitor" ? subject.userId : null}::int8,
      ${subject.kind === "admin" ? subject.sessionId : null}::int8,
      ${new Date(Date.now() + REFRESH_TTL_SECONDS * 1000)}::timestamptz)`;
  return {
    access_token: await signAccessToken(db, subject, family),
    refresh_token: refresh,
    token_type: "Bearer",
    expires_in: ACCESS_TTL_SECONDS,
  };
}

/** A new family: an API key exchanged, an operator logged in, or a messenger visitor booted. */
export function issueTokenPair(db: Db, subject: Subject): Promise<TokenPair> {
  return pair(db, subject, crypto.randomUUID(), null);
}

const refused = () => wrongCredentials("The refresh token is unknown, expired, used or revoked.");

/**
 * Rotation: the token is used up and its successor issued, for the subject as it is now (the key's current
 * scopes, the operator's current apps). A token used twice means someone else holds a copy: the whole family is
 * revoked, its access tokens too (on every instance), and the call refused.
 */
export async function refreshTokenPair(db: Db, token: string): Promise<TokenPair> {
  if (!token.startsWith(PREFIX) || token.length > 200) throw refused();
  const rec = await db.refreshToken.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!rec || rec.revokedAt || rec.expiresAt.getTime() <= Date.now()) throw refused();
  // Conditional: of two concurrent uses, exactly one wins; the other is a reuse.
  const won = await db.refreshToken.updateMany({
    where: { id: rec.id, usedAt: null },
    data: { usedAt: new Date() },
  });
  if (won.count === 0) {
    await revokeFamily(db, rec.familyId);
    console.warn(`refresh token reused: family ${rec.familyId} revoked`);
    throw refused();
  }
  const subject = await currentSubject(db, rec);
  if (!subject) {
    await revokeFamily(db, rec.familyId);
    throw refused();
  }
  return pair(db, subject, rec.familyId, rec.id);
}

async function currentSubject(
  db: Db,
  rec: { apiKeyId: bigint | null; adminId: bigint | null; sessionId: bigint | null; userId: bigint | null },
): Promise<Subject | null> {
  if (rec.userId !== null) {
    // A visitor merged into another user on login has no row left (the cascade ended its tokens too).
    const user = await db.user.findUnique({ where: { id: rec.userId }, select: { id: true, appId: true } });
    return user ? { kind: "visitor", appId: user.appId, userId: user.id } : null;
  }
  if (rec.apiKeyId !== null) {
    const key = await db.apiKey.findUnique({ where: { id: rec.apiKeyId } });
    if (!key || key.revokedAt) return null;
    return { kind: "key", apiKeyId: key.id, appId: key.appId, scopes: key.scopes.filter(isScope) };
  }
  if (rec.adminId !== null && rec.sessionId !== null) {
    const apps = await db.appAdmin.findMany({ where: { adminId: rec.adminId }, select: { appId: true } });
    return {
      kind: "admin",
      adminId: rec.adminId,
      sessionId: rec.sessionId,
      appIds: apps.map((a) => a.appId),
    };
  }
  return null;
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db.refreshToken.updateMany({
    where: { familyId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  revokeAccess(`fam:${familyId}`);
}

/**
 * Every refresh family of an API key or an operator, revoked at once. Their access tokens are stopped by the
 * caller's broadcast (lib/auth/disconnect.ts), which also ends their sockets.
 */
export async function revokeRefreshTokens(
  db: Db,
  of: { apiKeyId: bigint } | { adminId: bigint } | { userId: bigint },
) {
  await db.refreshToken.updateMany({ where: { ...of, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** A v3 operator's logout: the login's refresh tokens, its access tokens (`sid:<id>`) and its session row end. */
export async function endTokenSession(db: Db, sessionId: bigint): Promise<void> {
  await db.refreshToken.updateMany({
    where: { sessionId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  await db.session.deleteMany({ where: { id: sessionId } });
  revokeAccess(`sid:${sessionId}`);
}
