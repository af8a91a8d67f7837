import crypto from "node:crypto";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { sqlOf, type Queryable } from "../db/sql";
import { wrongCredentials } from "../domain/errors";
import { ACCESS_TTL_SECONDS, REFRESH_TTL_SECONDS } from "./jwt-config";
import { signAccessTokenWith, type Subject } from "./jwt";
import { currentSigningKey } from "./signing-keys";
import { familyRoom } from "./disconnect";
import { revokeRefreshRows, withRevocations } from "./revocations";
import { isScope } from "./scopes";
import { generateSecret, hashToken } from "./tokens";

type SigningKey = Awaited<ReturnType<typeof currentSigningKey>>;

const PREFIX = "rlr_";

/** What every v3 token-generating method answers (in the envelope's `data`). */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  expires_in: number;
}

/** Inserts the token and signs the access token before `q`'s transaction commits (see refreshTokenPair). */
async function pair(
  q: Queryable,
  key: SigningKey,
  subject: Subject,
  family: string,
  parentId: bigint | null,
): Promise<TokenPair> {
  const refresh = generateSecret(PREFIX);
  // On the driver: a messenger boot issues a pair on every page view (lib/messenger/boot.ts).
  await q.$executeRaw`
    INSERT INTO refresh_tokens (token_hash, family_id, parent_id, api_token_id, admin_id, user_id, session_id,
      expires_at)
    VALUES (${hashToken(refresh)}, ${family}, ${parentId}::int8, ${subject.kind === "key" ? subject.apiKeyId : null}::int8,
      ${subject.kind === "admin" ? subject.adminId : null}::int8, ${subject.kind === "visitor" ? subject.userId : null}::int8,
      ${subject.kind === "admin" ? subject.sessionId : null}::int8,
      ${new Date(Date.now() + REFRESH_TTL_SECONDS * 1000)}::timestamptz)`;
  return {
    access_token: await signAccessTokenWith(key, subject, family),
    refresh_token: refresh,
    token_type: "Bearer",
    expires_in: ACCESS_TTL_SECONDS,
  };
}

/** A new family: an API key exchanged, an operator logged in, or a messenger visitor booted. */
export async function issueTokenPair(db: Db, subject: Subject): Promise<TokenPair> {
  return pair(sqlOf(db), await currentSigningKey(db), subject, crypto.randomUUID(), null);
}

const refused = () => wrongCredentials("The refresh token is unknown, expired, used or revoked.");

interface Locked {
  id: bigint;
  parent_id: bigint | null;
  used_at: Date | null;
  revoked_at: Date | null;
}

/**
 * Rotation: the token is used up and its successor issued, for the subject as it is now (the key's current
 * scopes, the operator's current apps). A token used twice means someone else holds a copy: the whole family is
 * revoked, its access tokens too (on every instance), and the call refused.
 *
 * A family is revoked when its first token (its root) is: rotation and revocation both lock the root first (IDs in
 * order, lib/auth/revocations.ts), so one waits for the other. A rotation that goes first inserts its successor
 * and signs its access token before it commits, so the revocation after it sees the successor and stops the
 * access token (issued before the revocation's instant); a rotation that comes second finds the root revoked and
 * issues nothing. Concurrent uses of one token queue on it: the first wins, the next ones are reuses.
 */
export async function refreshTokenPair(db: Db, token: string): Promise<TokenPair> {
  if (!token.startsWith(PREFIX) || token.length > 200) throw refused();
  const rec = await db.refreshToken.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!rec || rec.revokedAt || rec.expiresAt.getTime() <= Date.now()) throw refused();
  // Read before the locks (no other statement may run inside a transaction on PGlite): a revocation of the
  // subject after this revokes the family's root too, so the pair issued for it is refused with the subject.
  const subject = rec.usedAt ? null : await currentSubject(db, rec);
  const key = await currentSigningKey(db);
  const family = rec.familyId;
  const out = await withRevocations(db, async (tx, revoke) => {
    const rows = await tx.$queryRaw<Locked[]>`
      SELECT id, parent_id, used_at, revoked_at FROM refresh_tokens
      WHERE family_id = ${family} AND (parent_id IS NULL OR id = ${rec.id}) ORDER BY id FOR UPDATE`;
    const own = rows.find((r) => r.id === rec.id);
    const root = rows.find((r) => r.parent_id === null);
    if (!own || own.revoked_at || root?.revoked_at) return "refused";
    if (own.used_at || !subject) {
      await revokeRefreshRows(tx, Prisma.sql`family_id = ${family}`);
      revoke([familyRoom(family)]);
      return own.used_at ? "reused" : "refused";
    }
    await tx.$executeRaw`UPDATE refresh_tokens SET used_at = now() WHERE id = ${rec.id}`;
    return pair(tx, key, subject, family, rec.id);
  });
  if (out === "reused") console.warn(`refresh token reused: family ${family} revoked`);
  if (typeof out === "string") throw refused();
  return out;
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

/** A family ends: its refresh tokens and access tokens, on every instance. */
export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await withRevocations(db, async (tx, revoke) => {
    await revokeRefreshRows(tx, Prisma.sql`family_id = ${familyId}`);
    revoke([familyRoom(familyId)]);
  });
}

/**
 * Every refresh family of an API key, an operator or a messenger visitor, revoked at once, with the subject's
 * access tokens and sockets, on every instance (lib/auth/revocations.ts).
 */
export async function revokeRefreshTokens(
  db: Db,
  of: { apiKeyId: bigint } | { adminId: bigint } | { userId: bigint },
): Promise<void> {
  const [where, name] =
    "apiKeyId" in of
      ? [Prisma.sql`api_token_id = ${of.apiKeyId}`, `key:${of.apiKeyId}`]
      : "adminId" in of
        ? [Prisma.sql`admin_id = ${of.adminId}`, `admin:${of.adminId}`]
        : [Prisma.sql`user_id = ${of.userId}`, `visitor:${of.userId}`];
  await withRevocations(db, async (tx, revoke) => {
    await revokeRefreshRows(tx, where);
    revoke([name]);
  });
}

/** A v3 operator's logout: the login's refresh tokens, its access tokens and sockets (`sid:<id>`) and its session row end. */
export async function endTokenSession(db: Db, sessionId: bigint): Promise<void> {
  await withRevocations(db, async (tx, revoke) => {
    await revokeRefreshRows(tx, Prisma.sql`session_id = ${sessionId}`);
    await tx.$executeRaw`DELETE FROM sessions WHERE id = ${sessionId}`;
    revoke([`sid:${sessionId}`]);
  });
}
