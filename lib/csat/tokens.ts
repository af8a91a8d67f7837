import crypto from "node:crypto";
import type { Tx } from "../db/client";
import { signingKey } from "../attachments/sign";

// A rating link's token: `<conversation>.<rating>.<mac>`, the HMAC under the server's secret of that pair and this
// purpose alone, so it rates that conversation with that score and can do nothing else (not unsubscribe, not read).
async function mac(db: Tx, conversationId: bigint, rating: number): Promise<string> {
  const key = await signingKey(db);
  return crypto
    .createHmac("sha256", key)
    .update(`csat:${conversationId}:${rating}`)
    .digest("hex")
    .slice(0, 32);
}

export async function ratingToken(db: Tx, conversationId: bigint, rating: number): Promise<string> {
  return `${conversationId}.${rating}.${await mac(db, conversationId, rating)}`;
}

/** The conversation and rating a token names, or undefined when we did not sign it. */
export async function verifyRatingToken(
  db: Tx,
  token: string,
): Promise<{ conversationId: bigint; rating: number } | undefined> {
  const m = /^(\d{1,19})\.([1-5])\.([0-9a-f]{32})$/.exec(token);
  if (!m) return undefined;
  const conversationId = BigInt(m[1]!);
  const rating = Number(m[2]);
  const want = Buffer.from(await mac(db, conversationId, rating));
  return crypto.timingSafeEqual(want, Buffer.from(m[3]!)) ? { conversationId, rating } : undefined;
}
