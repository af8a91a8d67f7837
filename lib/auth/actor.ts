import type { Runtime } from "../server/runtime";
import { throttled } from "../domain/errors";
import type { Actor } from "./context";
import { parseCookies, SESSION_COOKIE, verifySession } from "./sessions";
import { looksLikeJwt, verifyAccessToken } from "./jwt";
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

/** A genuine token of a kind this call does not take: refused, saying why, and never counted as a guess. */
export interface WrongKind {
  wrongKind: string;
}

const VISITOR_TOKEN =
  "A messenger visitor's access token cannot call this endpoint: it is for the messenger's own endpoints.";
const V3_TOKEN =
  "An API v3 access token is accepted under API v3 only: call /api/v3/…, or send the API key itself.";
/** What a messenger visitor's endpoint answers any other credential, or none. */
export const VISITOR_ONLY = "This endpoint needs a messenger visitor's access token (from /messenger/boot).";

/**
 * The one way a request or a socket becomes an actor: its token when it sends one (an API key, or where allowed an
 * API v3 access token; an unknown token never falls back to the cookie), else its session cookie; null when neither
 * is known. Guessing tokens counts against one per-address limit whichever way they come: past it, this throws
 * Throttled. A genuine token of another kind (a visitor's on an operator's endpoint, an access token under v1) is
 * no guess: it is refused as the wrong kind of credential, whatever the limit.
 */
export async function identify(
  rt: Pick<Runtime, "db" | "badTokens">,
  creds: Credentials,
): Promise<Identified | WrongKind | null> {
  const { db } = rt;
  if (creds.token !== undefined) {
    if (looksLikeJwt(creds.token)) {
      const actor = await verifyAccessToken(db, creds.token);
      if (actor?.kind === "visitor") return creds.visitor ? { actor } : { wrongKind: VISITOR_TOKEN };
      // Narrowed per kind: each kind is its own member of Identified.
      if (actor && creds.jwt) return actor.kind === "token" ? { actor } : { actor };
      if (actor) return { wrongKind: creds.visitor ? VISITOR_ONLY : V3_TOKEN };
    } else {
      const t = await verifyApiKey(db, creds.token);
      if (t) return { actor: { kind: "token", ...t } };
    }
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
