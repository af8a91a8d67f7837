import crypto from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import type { Db } from "../db/client";
import { loadConfig } from "../config/env";
import { processWide } from "../config/process-wide";
import { tryRuntime } from "../server/runtime";
import { JWT_ALG, JWT_CURVE, KEY_ROTATE_AFTER_MS, KEYS_RELOAD_MS, RETIRED_KEY_KEEP_MS } from "./jwt-config";

/**
 * The access-token signing keys, from the database into each instance's memory: signing uses the newest usable
 * key, verifying looks the token's `kid` up in memory (a database read only for a kid not yet seen here, at most
 * once a second). Keys rotate: the new key becomes current, the old ones stay for verification until every token
 * they signed has expired, then they are deleted.
 */
interface Keyring {
  current: { kid: string; key: CryptoKey; created: number } | undefined;
  verify: Map<string, CryptoKey>;
  loadedAt: number;
}
interface State {
  ring?: Promise<Keyring>;
  lastMissReload: number;
  reloading?: boolean;
}

const states = processWide("jwt.keyrings", () => new WeakMap<object, State>());
const stateOf = (db: Db): State => {
  let s = states.get(db);
  if (!s) states.set(db, (s = { lastMissReload: 0 }));
  return s;
};

/** AES-256-GCM under a key derived from APP_SECRET; without one, the key is stored as is (never served). */
function sealKey(jwk: JWK): string {
  const secret = appSecret();
  const text = JSON.stringify(jwk);
  if (!secret) return `plain.${Buffer.from(text).toString("base64url")}`;
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", wrapKey(secret), iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return ["aesgcm", iv, cipher.getAuthTag(), body]
    .map((x) => (typeof x === "string" ? x : x.toString("base64url")))
    .join(".");
}

function openKey(sealed: string): JWK | undefined {
  const [kind, ...rest] = sealed.split(".");
  try {
    if (kind === "plain" && rest[0]) return JSON.parse(Buffer.from(rest[0], "base64url").toString()) as JWK;
    const secret = appSecret();
    if (kind !== "aesgcm" || !secret || rest.length !== 3) return undefined;
    const [iv, tag, body] = rest.map((x) => Buffer.from(x, "base64url")) as [Buffer, Buffer, Buffer];
    const decipher = crypto.createDecipheriv("aes-256-gcm", wrapKey(secret), iv);
    decipher.setAuthTag(tag);
    return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString()) as JWK;
  } catch {
    // APP_SECRET changed: the key cannot sign any more (it still verifies through its public half).
    return undefined;
  }
}

/** The server's APP_SECRET; the CLI (no runtime) reads the same environment. */
const appSecret = () => (tryRuntime()?.config ?? loadConfig()).secret;
const wrapKey = (secret: string) => crypto.createHash("sha256").update(`jwt-signing-keys:${secret}`).digest();

/** Makes a new key current and retires the others; deletes keys whose last token has expired. */
export async function rotateSigningKey(db: Db): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(JWT_ALG, { crv: JWT_CURVE, extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = crypto.randomBytes(12).toString("base64url");
  const now = new Date();
  await db.$transaction([
    db.signingKey.updateMany({ where: { retiredAt: null }, data: { retiredAt: now } }),
    db.signingKey.create({
      data: {
        kid,
        alg: JWT_ALG,
        publicJwk: { ...pub, kid, alg: JWT_ALG, use: "sig" },
        privateKey: sealKey(await exportJWK(privateKey)),
      },
    }),
    db.signingKey.deleteMany({ where: { retiredAt: { lt: new Date(now.getTime() - RETIRED_KEY_KEEP_MS) } } }),
  ]);
  stateOf(db).ring = undefined;
  return kid;
}

/** The keys that still verify: the current ones and those retired too recently for their tokens to have expired. */
export async function publicKeys(db: Db): Promise<JWK[]> {
  const rows = await db.signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: new Date(Date.now() - RETIRED_KEY_KEEP_MS) } }] },
    orderBy: { created: "desc" },
    select: { publicJwk: true },
  });
  return rows.map((r) => r.publicJwk as JWK);
}

async function load(db: Db): Promise<Keyring> {
  const rows = await db.signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: new Date(Date.now() - RETIRED_KEY_KEEP_MS) } }] },
    orderBy: { created: "desc" },
  });
  const verify = new Map<string, CryptoKey>();
  let current: Keyring["current"];
  for (const r of rows) {
    verify.set(r.kid, (await importJWK(r.publicJwk as JWK, JWT_ALG)) as CryptoKey);
    if (current || r.retiredAt) continue;
    const jwk = openKey(r.privateKey);
    if (jwk)
      current = {
        kid: r.kid,
        key: (await importJWK(jwk, JWT_ALG)) as CryptoKey,
        created: r.created.getTime(),
      };
  }
  return { current, verify, loadedAt: Date.now() };
}

function ring(db: Db, fresh = false): Promise<Keyring> {
  const s = stateOf(db);
  if (!s.ring || fresh) {
    const p = load(db);
    p.catch(() => {
      if (s.ring === p) s.ring = undefined;
    });
    s.ring = p;
  }
  return s.ring;
}

/** The key to sign with: rotated first when there is none (first use, APP_SECRET changed) or it is too old. */
export async function currentSigningKey(db: Db): Promise<{ kid: string; key: CryptoKey }> {
  let r = await ring(db);
  if (r.loadedAt + KEYS_RELOAD_MS < Date.now()) r = await ring(db, true);
  if (!r.current || r.current.created + KEY_ROTATE_AFTER_MS < Date.now()) {
    await rotateSigningKey(db);
    r = await ring(db, true);
  }
  if (!r.current) throw new Error("no usable signing key after rotation");
  return r.current;
}

/** The public key of `kid`, from memory; a kid unknown here (another instance's new key) reloads at most once a second. */
export async function verificationKey(db: Db, kid: string | undefined): Promise<CryptoKey | undefined> {
  if (!kid) return undefined;
  const s = stateOf(db);
  let r = await ring(db);
  // Once a minute in the background, so that keys retired elsewhere leave this memory too.
  if (r.loadedAt + KEYS_RELOAD_MS < Date.now() && !s.reloading) {
    s.reloading = true;
    void ring(db, true)
      .catch(() => undefined)
      .finally(() => (s.reloading = false));
  }
  const hit = r.verify.get(kid);
  if (hit || s.lastMissReload + 1000 > Date.now()) return hit;
  s.lastMissReload = Date.now();
  r = await ring(db, true);
  return r.verify.get(kid);
}

/** Forgets the keys in memory (a test's clock jump, a rotation broadcast). */
export function forgetSigningKeys(db: Db): void {
  stateOf(db).ring = undefined;
}
