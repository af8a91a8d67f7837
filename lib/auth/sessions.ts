import crypto from "node:crypto";
import type { Db } from "../db/client";
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
}

export async function verifySession(db: Db, cookieValue: string): Promise<SessionAuth | null> {
  if (!cookieValue.startsWith("rls_") || cookieValue.length > 200) return null;
  const s = await db.session.findUnique({ where: { tokenHash: hashToken(cookieValue) } });
  if (!s || s.expires.getTime() <= Date.now()) return null;
  // Sliding expiry, written at most once an hour.
  if (Date.now() - s.lastSeen.getTime() > REFRESH_MS) {
    void db.session
      .update({ where: { id: s.id }, data: { lastSeen: new Date(), expires: new Date(Date.now() + TTL_MS) } })
      .catch(() => undefined);
  }
  return { sessionId: s.id, adminId: s.adminId, csrfToken: s.csrfToken, expires: s.expires };
}

export async function deleteSession(db: Db, cookieValue: string): Promise<void> {
  await db.session.deleteMany({ where: { tokenHash: hashToken(cookieValue) } });
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
