import crypto from "node:crypto";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import { withRevocations } from "./revocations";
import { generateSecret, hashToken } from "./tokens";

export const SESSION_COOKIE = "relay_session";
export const CSRF_HEADER = "x-csrf-token";

/** The session cookie's attributes, whoever sets it (the login endpoint, the login form without script). */
export function sessionCookieAttributes(secure: boolean) {
  return { path: "/", httpOnly: true, sameSite: "lax", secure } as const;
}
const TTL_MS = 14 * 24 * 3600_000;
const REFRESH_MS = 3600_000;

export async function createSession(db: Db, adminId: bigint) {
  const secret = generateSecret("rls_");
  const csrfToken = crypto.randomBytes(24).toString("base64url");
  const expires = new Date(Date.now() + TTL_MS);
  const row = await db.session.create({
    data: { adminId, tokenHash: hashToken(secret), csrfToken, expires },
    select: { id: true },
  });
  return { cookieValue: secret, csrfToken, expires, sessionId: row.id };
}

export interface SessionAuth {
  sessionId: bigint;
  adminId: bigint;
  csrfToken: string;
  expires: Date;
  /** The apps the operator belongs to, in the order the membership rows are read (the first is the default). */
  appIds: bigint[];
}

interface SessionRow {
  id: bigint;
  admin_id: bigint;
  csrf_token: string;
  expires: Date;
  last_seen: Date;
  app_ids: bigint[];
}

/**
 * The session and its operator's memberships in one statement on the driver: every request of the panel reads
 * them, and through Prisma (two queries) they cost several times a token's whole answer (docs/decisions.md).
 * The memberships' subquery is the one Prisma sent (no order), so the first app is the same.
 */
const sessionStatement = (tokenHash: string) => Prisma.sql`
  SELECT s.id, s.admin_id, s.csrf_token, s.expires, s.last_seen,
         ARRAY(SELECT a.app_id FROM app_admins a WHERE a.admin_id = s.admin_id) AS app_ids
  FROM sessions s WHERE s.token_hash = ${tokenHash}`;

export async function verifySession(db: Db, cookieValue: string): Promise<SessionAuth | null> {
  if (!cookieValue.startsWith("rls_") || cookieValue.length > 200) return null;
  const [s] = await sqlOf(db).$queryRaw<SessionRow[]>(sessionStatement(hashToken(cookieValue)));
  if (!s || s.expires.getTime() <= Date.now()) return null;
  // Sliding expiry, written at most once an hour.
  if (Date.now() - s.last_seen.getTime() > REFRESH_MS) {
    void db.session
      .update({ where: { id: s.id }, data: { lastSeen: new Date(), expires: new Date(Date.now() + TTL_MS) } })
      .catch(() => undefined);
  }
  return {
    sessionId: s.id,
    adminId: s.admin_id,
    csrfToken: s.csrf_token,
    expires: s.expires,
    appIds: s.app_ids,
  };
}

/** A logout: the session ends, and its sockets with it on every instance (lib/auth/revocations.ts). */
export async function deleteSession(db: Db, cookieValue: string): Promise<void> {
  await withRevocations(db, async (tx, revoke) => {
    const gone = await tx.$queryRaw<{ id: bigint }[]>`
      DELETE FROM sessions WHERE token_hash = ${hashToken(cookieValue)} RETURNING id`;
    revoke(gone.map((s) => `sid:${s.id}`));
  });
}

export function csrfMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export function parseCookies(header: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    if (!k) continue;
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      out[k] = part.slice(i + 1).trim();
    }
  }
  return out;
}
