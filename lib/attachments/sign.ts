import crypto from "node:crypto";
import type { Tx } from "../db/client";
import { denied } from "../domain/errors";
import { tryRuntime } from "../server/runtime";

/**
 * Attachment links are capability URLs: `/api/attachments/<id>?expires=<unix>&signature=<hmac>`. They need no
 * token, so they work in an <img> tag and for whoever receives a webhook, and stop working when they expire.
 */
export const URL_TTL_SECONDS = 7 * 24 * 3600;
// Expiry rounded up to the hour keeps a part's URL stable across requests within that hour (browser caches).
const ROUND_SECONDS = 3600;
const SECRET_NAME = "attachments";

const keys = new WeakMap<object, Promise<Buffer>>();

/**
 * The HMAC key: from APP_SECRET when set, else a random secret created once and kept in `server_secrets`, so every
 * instance sharing the database signs and verifies alike and links survive restarts.
 */
export function signingKey(db: Tx): Promise<Buffer> {
  const configured = tryRuntime()?.config.secret;
  if (configured)
    return Promise.resolve(crypto.createHash("sha256").update(`attachments:${configured}`).digest());
  let key = keys.get(db);
  if (!key) {
    key = (async () => {
      const fresh = crypto.randomBytes(32).toString("hex");
      await db.$executeRaw`
        INSERT INTO server_secrets (name, value) VALUES (${SECRET_NAME}, ${fresh}) ON CONFLICT (name) DO NOTHING`;
      const rows = await db.$queryRaw<
        { value: string }[]
      >`SELECT value FROM server_secrets WHERE name = ${SECRET_NAME}`;
      const value = rows[0]?.value;
      if (!value) throw new Error("attachment signing secret missing after insert");
      return Buffer.from(value, "hex");
    })();
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

function mac(key: Buffer, id: bigint, expires: number): string {
  return crypto.createHmac("sha256", key).update(`${id}.${expires}`).digest("hex");
}

export type AttachmentUrl = (attachmentId: bigint) => string;

/** Where links point: PUBLIC_URL when configured, else the origin the request came to ("" gives relative links). */
export function publicBase(origin?: string): string {
  const configured = tryRuntime()?.config.publicUrl;
  return (configured || origin || "").replace(/\/+$/, "");
}

/** A synchronous URL maker for serializers; the key is fetched once, before any transaction. */
export async function attachmentUrls(db: Tx, base: string, now = Date.now()): Promise<AttachmentUrl> {
  const key = await signingKey(db);
  const expires = Math.ceil((now / 1000 + URL_TTL_SECONDS) / ROUND_SECONDS) * ROUND_SECONDS;
  return (id) => `${base}/api/attachments/${id}?expires=${expires}&signature=${mac(key, id, expires)}`;
}

export async function verifyAttachmentUrl(
  db: Tx,
  input: { id: bigint; expires: number; signature: string },
  now = Date.now(),
): Promise<void> {
  const key = await signingKey(db);
  const want = Buffer.from(mac(key, input.id, input.expires), "hex");
  const got = Buffer.from(/^[0-9a-f]{64}$/i.test(input.signature) ? input.signature : "", "hex");
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) {
    throw denied("This attachment link is not valid.");
  }
  if (input.expires * 1000 < now)
    throw denied("This attachment link has expired; fetch the part again for a new one.");
}
