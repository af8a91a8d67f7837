import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { createTestDb, type TestDb } from "../db/testing";
import { makeApp } from "../testing/factories";
import { forgetVerifiedTokens, signAccessToken, verifyAccessToken, type Subject } from "./jwt";
import { ACCESS_TTL_SECONDS, JWT_ISSUER } from "./jwt-config";
import { noteRevoked } from "./revoked";
import { currentSigningKey, forgetSigningKeys, publicKeys, rotateSigningKey } from "./signing-keys";

let t: TestDb;
let subject: Extract<Subject, { kind: "key" }>;

beforeAll(async () => {
  t = await createTestDb();
  const a = await makeApp(t.db);
  const key = await t.db.apiKey.findFirstOrThrow({ where: { appId: a.app.id } });
  subject = { kind: "key", apiKeyId: key.id, appId: a.app.id, scopes: ["conversations-read", "user-read"] };
});
afterAll(async () => {
  await t.close();
});

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

/** A token signed with the current key, with claims a test chooses (what a forger with the key could write). */
async function forge(over: { aud?: string; iss?: string; iat?: number; exp?: number } = {}) {
  const { kid, key } = await currentSigningKey(t.db);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: "conversations-read", fam: "f1" })
    .setProtectedHeader({ alg: "EdDSA", kid, typ: "at+jwt" })
    .setIssuer(over.iss ?? JWT_ISSUER)
    .setAudience(over.aud ?? `relay:app:${subject.appId}`)
    .setSubject(`key:${subject.apiKeyId}`)
    .setJti("j1")
    .setIssuedAt(over.iat ?? now)
    .setExpirationTime(over.exp ?? now + 60)
    .sign(key);
}

describe("access tokens", () => {
  it("carry the app, the actor and the scopes, and verify without the database", async () => {
    const token = await signAccessToken(t.db, subject, "fam-a");
    const actor = await verifyAccessToken(t.db, token);
    expect(actor).toEqual({ ...subject, kind: "token", viaJwt: true });
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe("EdDSA");
    expect(header.kid).toBeTruthy();
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<
      string,
      unknown
    >;
    expect(claims.exp).toBe((claims.iat as number) + ACCESS_TTL_SECONDS);
    expect(claims).toMatchObject({
      iss: "relay",
      aud: `relay:app:${subject.appId}`,
      scope: "conversations-read user-read",
    });
    expect(typeof claims.jti).toBe("string");
  });

  it("refuses an expired token", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verifyAccessToken(t.db, await forge({ iat: now - 400, exp: now - 100 }))).toBeNull();
    expect(await verifyAccessToken(t.db, await forge({ iat: now - 10, exp: now + 50 }))).not.toBeNull();
  });

  it("refuses a tampered signature or payload", async () => {
    const token = await signAccessToken(t.db, subject, "fam-b");
    const [h, pl, sig] = token.split(".") as [string, string, string];
    const flipped = sig.slice(0, 10) + (sig[10] === "A" ? "B" : "A") + sig.slice(11);
    expect(await verifyAccessToken(t.db, `${h}.${pl}.${flipped}`)).toBeNull();
    const claims = JSON.parse(Buffer.from(pl, "base64url").toString()) as Record<string, unknown>;
    const wider = b64({ ...claims, scope: "app-admin" });
    expect(await verifyAccessToken(t.db, `${h}.${wider}.${sig}`)).toBeNull();
  });

  it("refuses alg none and HS256 keyed with the public key", async () => {
    const { kid } = await currentSigningKey(t.db);
    const good = await signAccessToken(t.db, subject, "fam-c");
    const payload = good.split(".")[1]!;
    expect(
      await verifyAccessToken(t.db, `${b64({ alg: "none", typ: "at+jwt", kid })}.${payload}.`),
    ).toBeNull();
    const jwk = (await publicKeys(t.db)).find((k) => k.kid === kid)!;
    const hs = await new SignJWT(
      JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>,
    )
      .setProtectedHeader({ alg: "HS256", kid, typ: "at+jwt" })
      .sign(new TextEncoder().encode(JSON.stringify(jwk)));
    expect(await verifyAccessToken(t.db, hs)).toBeNull();
  });

  it("refuses a wrong audience or issuer", async () => {
    expect(await verifyAccessToken(t.db, await forge({ aud: "someone-else" }))).toBeNull();
    expect(await verifyAccessToken(t.db, await forge({ aud: "relay:app:x" }))).toBeNull();
    expect(await verifyAccessToken(t.db, await forge({ iss: "https://evil.example" }))).toBeNull();
  });

  it("stops at once when its subject or family is revoked", async () => {
    const other = { ...subject, apiKeyId: subject.apiKeyId + 1000n };
    const token = await signAccessToken(t.db, other, "fam-d");
    expect(await verifyAccessToken(t.db, token)).not.toBeNull();
    noteRevoked(`key:${other.apiKeyId}`);
    expect(await verifyAccessToken(t.db, token)).toBeNull();
    const sibling = await signAccessToken(t.db, subject, "fam-e");
    noteRevoked("fam:fam-e");
    expect(await verifyAccessToken(t.db, sibling)).toBeNull();
    expect(await verifyAccessToken(t.db, await signAccessToken(t.db, subject, "fam-f"))).not.toBeNull();
  });
});

describe("signing keys", () => {
  it("rotate: old tokens verify until the old key's tokens have expired, new ones use the new key", async () => {
    const before = await signAccessToken(t.db, subject, "fam-r");
    const oldKid = decodeProtectedHeader(before).kid;
    const newKid = await rotateSigningKey(t.db);
    expect(newKid).not.toBe(oldKid);
    const after = await signAccessToken(t.db, subject, "fam-r");
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    expect(await verifyAccessToken(t.db, before)).not.toBeNull();
    expect(await verifyAccessToken(t.db, after)).not.toBeNull();
    expect((await publicKeys(t.db)).map((k) => k.kid)).toEqual([newKid, oldKid]);

    // Retired long enough ago that every token it signed has expired: gone from memory and from the JWKS.
    await t.db.signingKey.update({
      where: { kid: oldKid! },
      data: { retiredAt: new Date(Date.now() - 3600_000) },
    });
    forgetSigningKeys(t.db);
    forgetVerifiedTokens();
    expect(await verifyAccessToken(t.db, before)).toBeNull();
    expect(await verifyAccessToken(t.db, after)).not.toBeNull();
    expect((await publicKeys(t.db)).map((k) => k.kid)).toEqual([newKid]);
  });

  it("publish public keys only, and the JWKS verifies a token", async () => {
    const keys = await publicKeys(t.db);
    for (const k of keys) {
      expect(k).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
      expect(k).not.toHaveProperty("d");
    }
    const token = await signAccessToken(t.db, subject, "fam-j");
    const { payload } = await jwtVerify(token, createLocalJWKSet({ keys }), {
      issuer: "relay",
      audience: `relay:app:${subject.appId}`,
    });
    expect(payload.sub).toBe(`key:${subject.apiKeyId}`);
  });

  it("seal the private half under APP_SECRET; without the secret a key cannot sign and is replaced", async () => {
    process.env.APP_SECRET = "test-secret-for-jwt-keys";
    try {
      const kid = await rotateSigningKey(t.db);
      const row = await t.db.signingKey.findUniqueOrThrow({ where: { kid } });
      expect(row.privateKey).toMatch(/^aesgcm\./);
      const token = await signAccessToken(t.db, subject, "fam-s");
      expect(decodeProtectedHeader(token).kid).toBe(kid);
    } finally {
      delete process.env.APP_SECRET;
    }
    forgetSigningKeys(t.db);
    const { kid } = await currentSigningKey(t.db);
    const row = await t.db.signingKey.findUniqueOrThrow({ where: { kid } });
    expect(row.privateKey).toMatch(/^plain\./);
  });
});
