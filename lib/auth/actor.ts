import type { Runtime } from "../server/runtime";
import { throttled } from "../domain/errors";
import type { Actor } from "./context";
import { parseCookies, SESSION_COOKIE, verifySession } from "./sessions";
import { verifyAccessToken } from "./jwt";
import { verifyApiKey } from "./tokens";

/** What an HTTP request or a socket handshake presents: a token (an API key, or where allowed a v3 access token), or else a session cookie. */
export interface Credentials {
  token: string | undefined;
  /** The Cookie header, which may carry the session cookie. */
  cookies: string | undefined;
  /** Where they come from: unknown tokens count against this address. */
  address: string;
  /** API v3 access tokens (JWTs) are accepted too: under v3 and on sockets, never under v1 or v2. */
  jwt?: boolean;
  /** A messenger visitor's access token is accepted: the visitor endpoints and sockets only. */
  visitor?: boolean;
}

/**
 * A known actor; a session also brings its CSRF token, which HTTP writes must echo (an operator's access token
 * is sent by the caller, never by the browser on its own, so it needs none).
 */
export type Identified =
  | { actor: Extract<Actor, { kind: "token" }> }
  | { actor: Extract<Actor, { kind: "visitor" }> }
  | { actor: Extract<Actor, { kind: "admin" }>; csrfToken?: string };

/**
 * The one way a request or a socket becomes an actor: its token when it sends one (an API key, or where allowed an
 * API v3 access token; an unknown token never falls back to the cookie), else its session cookie; null when neither
 * is known. Guessing tokens counts against one per-address limit whichever way they come: past it, this throws
 * Throttled.
 */
export async function identify(
  rt: Pick<Runtime, "db" | "badTokens">,
  creds: Credentials,
): Promise<Identified | null> {
  const { db } = rt;
  if (creds.token !== undefined) {
    if (creds.jwt || creds.visitor) {
      const actor = await verifyAccessToken(db, creds.token);
      // A visitor's token is genuine but speaks for no operator or key: refused as unknown where not accepted
      // (without counting as a guess), and operators' tokens are refused where only visitors are served.
      if (actor?.kind === "visitor") return creds.visitor ? { actor } : null;
      if (actor && !creds.jwt) return null;
      // Narrowed per kind: each kind is its own member of Identified.
      if (actor) return actor.kind === "token" ? { actor } : { actor };
    }
    const t = await verifyApiKey(db, creds.token);
    if (t) return { actor: { kind: "token", ...t } };
    const verdict = await rt.badTokens.take(`badtoken:${creds.address}`);
    if (verdict.ok) return null;
    throw throttled("Too many requests with unknown tokens: slow down.", verdict.retryAfter);
  }
  const cookie = parseCookies(creds.cookies)[SESSION_COOKIE];
  const s = cookie ? await verifySession(db, cookie) : null;
  if (!s) return null;
  return {
    actor: { kind: "admin", adminId: s.adminId, sessionId: s.sessionId, appIds: s.appIds },
    csrfToken: s.csrfToken,
  };
}
