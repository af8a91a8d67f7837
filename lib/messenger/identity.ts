import crypto from "node:crypto";
import { normalizeOrigin } from "./origins";

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** The hex HMAC-SHA256 of a user ID with the app's identity secret: what the site's server computes. */
export function userHashOf(secret: string, userId: string): string {
  return crypto.createHmac("sha256", secret).update(userId, "utf8").digest("hex");
}

/**
 * Whether `hash` is the user ID's HMAC under `secret`. Compared in constant time, so that timing tells nothing
 * of how much of a forged hash was right; anything but 64 hex digits is false.
 */
export function verifyUserHash(secret: string, userId: string, hash: string): boolean {
  if (!HEX_SHA256.test(hash)) return false;
  const expected = Buffer.from(userHashOf(secret, userId), "hex");
  return crypto.timingSafeEqual(expected, Buffer.from(hash, "hex"));
}

/** Whether the messenger may run on a page of `origin`: every origin when the app lists none. */
export function isOriginAllowed(settings: { allowedOrigins: readonly string[] }, origin: string): boolean {
  if (settings.allowedOrigins.length === 0) return true;
  const o = normalizeOrigin(origin);
  return o !== undefined && settings.allowedOrigins.includes(o);
}
