import { tryRuntime } from "../server/runtime";
import { applyRevocation, withRevocations } from "./revocations";

/**
 * Rooms every socket joins on connect, named as the revocations that end it (lib/auth/revocations.ts): an
 * operator's session and themself, an API key, a messenger visitor. A revocation closes the sockets of its names
 * on every instance, so that access taken away (a logout, a removal from an app, a revoked key) also ends the
 * sockets it authorised.
 */
export const sessionRoom = (sessionId: bigint) => `sid:${sessionId}`;
export const adminRoom = (adminId: bigint) => `admin:${adminId}`;
export const apiKeyRoom = (apiKeyId: bigint) => `key:${apiKeyId}`;
export const visitorRoom = (userId: bigint) => `visitor:${userId}`;
/** A refresh family: a visitor's socket opened with one of its access tokens ends when a reuse revokes it. */
export const familyRoom = (family: string) => `fam:${family}`;

/**
 * A messenger visitor's logout, or its merge into the user it logged in as: its access tokens issued until now and
 * its sockets end, here at once and on every instance. Where its refresh tokens are revoked as well,
 * revokeRefreshTokens (lib/auth/refresh-tokens.ts) does both in one transaction.
 */
export function disconnectVisitor(userId: bigint): void {
  // The instant of the call, not of the commit: a pair issued in the next second stays valid.
  const r = { names: [visitorRoom(userId)], at: Date.now() };
  applyRevocation(r);
  const db = tryRuntime()?.db;
  if (!db) return;
  void withRevocations(db, async (_tx, revoke) => revoke(r.names, r.at)).catch((err: unknown) =>
    console.error("visitor revocation not logged:", err),
  );
}
