import crypto from "node:crypto";
import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import type { Db } from "../db/client";
import { processWide } from "../config/process-wide";
import type { Actor } from "./context";
import { ACCESS_TTL_SECONDS, appAudience, JWT_ALG, JWT_ISSUER } from "./jwt-config";
import { isRevoked } from "./revoked";
import { isScope, type Scope } from "./scopes";
import { currentSigningKey, verificationKey } from "./signing-keys";

type SigningKey = Awaited<ReturnType<typeof currentSigningKey>>;

/**
 * Who an access token speaks for: an API key (its app and scopes), an operator (their apps, their session), or a
 * messenger visitor (one user of one app).
 */
export type Subject =
  | { kind: "key"; apiKeyId: bigint; appId: bigint; scopes: readonly Scope[] }
  | { kind: "admin"; adminId: bigint; sessionId: bigint; appIds: readonly bigint[] }
  | { kind: "visitor"; appId: bigint; userId: bigint };

export type JwtActor =
  | Extract<Actor, { kind: "token" }>
  | (Extract<Actor, { kind: "admin" }> & { viaJwt: true })
  | Extract<Actor, { kind: "visitor" }>;

const APP_AUD = /^relay:app:(\d{1,19})$/;
const ID = /^\d{1,19}$/;

export const subjectName = (s: Subject) =>
  s.kind === "key" ? `key:${s.apiKeyId}` : s.kind === "admin" ? `admin:${s.adminId}` : `visitor:${s.userId}`;

/** A signed access token (EdDSA over Ed25519, `kid` in the header) for `subject`, in refresh family `family`. */
export async function signAccessToken(db: Db, subject: Subject, family: string): Promise<string> {
  return signAccessTokenWith(await currentSigningKey(db), subject, family);
}

/** The same with a signing key already at hand: no database read (inside a transaction on PGlite, none may run). */
export async function signAccessTokenWith(
  { kid, key }: SigningKey,
  subject: Subject,
  family: string,
): Promise<string> {
  const claims: Record<string, string> = { fam: family };
  if (subject.kind === "key") claims.scope = subject.scopes.join(" ");
  else if (subject.kind === "admin") claims.sid = String(subject.sessionId);
  const aud = subject.kind === "admin" ? subject.appIds.map(appAudience) : appAudience(subject.appId);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: JWT_ALG, kid, typ: "at+jwt" })
    .setIssuer(JWT_ISSUER)
    .setAudience(aud)
    .setSubject(subjectName(subject))
    .setJti(crypto.randomBytes(12).toString("base64url"))
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TTL_SECONDS}s`)
    .sign(key);
}

/** Cheap shape test: three base64url parts, the first a JSON header. API keys (`rly_…`) never look like this. */
export function looksLikeJwt(token: string): boolean {
  return token.startsWith("eyJ") && token.length < 4096 && token.split(".").length === 3;
}

/**
 * The actor of a valid access token, or null: a bad signature, another algorithm (`none`, HS256 with the public key
 * as secret...), an unknown key, a wrong issuer or audience, an expired or revoked token. No database read.
 */
export async function verifyAccessToken(db: Db, token: string): Promise<JwtActor | null> {
  if (!looksLikeJwt(token)) return null;
  const hit = verified.get(token);
  if (hit) {
    if (hit.exp > Date.now() && !isRevoked(hit.names, hit.iat)) return hit.actor;
    verified.delete(token);
    return null;
  }
  const v = await verifyUncached(db, token);
  if (!v) return null;
  if (verified.size >= 10_000) verified.clear();
  verified.set(token, v);
  return v.actor;
}

interface Verified {
  actor: JwtActor;
  /** Milliseconds. */
  exp: number;
  iat: number;
  names: string[];
}

// A client sends one token for its whole life: its signature is checked once per process (WebCrypto's verify
// costs several times the rest of a small request). Expiry and revocation are still checked on every use.
const verified = processWide("jwt.verified", () => new Map<string, Verified>());

async function verifyUncached(db: Db, token: string): Promise<Verified | null> {
  try {
    const { kid } = decodeProtectedHeader(token);
    const key = await verificationKey(db, kid);
    if (!key) return null;
    const { payload } = await jwtVerify(token, key, {
      algorithms: [JWT_ALG],
      issuer: JWT_ISSUER,
      typ: "at+jwt",
      requiredClaims: ["sub", "aud", "exp", "iat", "jti", "fam"],
      maxTokenAge: `${ACCESS_TTL_SECONDS + 5}s`,
    });
    const aud = typeof payload.aud === "string" ? [payload.aud] : (payload.aud ?? []);
    const apps: bigint[] = [];
    for (const a of aud) {
      const m = APP_AUD.exec(a);
      if (!m?.[1]) return null;
      apps.push(BigInt(m[1]));
    }
    const sub = payload.sub ?? "";
    const names = [sub, `fam:${String(payload.fam)}`];
    if (typeof payload.sid === "string") names.push(`sid:${payload.sid}`);
    const iat = payload.iat ?? 0;
    if (isRevoked(names, iat)) return null;
    const [kind, id] = sub.split(":");
    if (!id || !ID.test(id)) return null;
    const exp = (payload.exp ?? 0) * 1000;
    if (kind === "key" && apps.length === 1 && typeof payload.scope === "string") {
      const scopes = payload.scope.split(" ").filter(isScope);
      const actor = { kind: "token", apiKeyId: BigInt(id), appId: apps[0]!, scopes, viaJwt: true } as const;
      return { actor, exp, iat, names };
    }
    if (kind === "admin" && typeof payload.sid === "string" && ID.test(payload.sid)) {
      const actor = {
        kind: "admin",
        adminId: BigInt(id),
        sessionId: BigInt(payload.sid),
        appIds: apps,
        viaJwt: true,
      } as const;
      return { actor, exp, iat, names };
    }
    if (kind === "visitor" && apps.length === 1) {
      const family = String(payload.fam);
      const actor = { kind: "visitor", appId: apps[0]!, userId: BigInt(id), family, viaJwt: true } as const;
      return { actor, exp, iat, names };
    }
    return null;
  } catch {
    return null;
  }
}

/** Forgets which tokens were verified (tests that retire a key early, as no real clock would). */
export function forgetVerifiedTokens(): void {
  verified.clear();
}
