import crypto from "node:crypto";
import type { Tx } from "../db/client";
import { signingKey } from "../attachments/sign";

/**
 * Reply tokens are 160 random bits in lowercase hex: a mail system may fold the case of a local part, and any
 * case-folded base64 token would stop matching.
 */
export const newReplyToken = () => crypto.randomBytes(20).toString("hex");

export const replyAddress = (token: string, domain: string) => `reply+${token}@${domain}`;

/** The token of a `reply+<token>@<domain>` address, or undefined. */
export function replyTokenOf(address: string, domain: string): string | undefined {
  const m = /^reply\+([0-9a-f]{40})@(.+)$/.exec(address.trim().toLowerCase());
  return m && m[2] === domain ? m[1] : undefined;
}

async function bounceMac(db: Tx, emailId: bigint): Promise<string> {
  const key = await signingKey(db);
  return crypto.createHmac("sha256", key).update(`bounce:${emailId}`).digest("hex").slice(0, 16);
}

/**
 * Where bounces come back (the envelope sender): VERP, so a delivery report names its email, signed so that no one
 * marks an address bouncing with a report for a guessed email ID.
 */
export async function bounceAddress(db: Tx, emailId: bigint, domain: string): Promise<string> {
  return `bounce+${emailId}.${await bounceMac(db, emailId)}@${domain}`;
}

/** The email a return path names, when we signed it. */
export async function bounceIdOf(db: Tx, address: string, domain: string): Promise<bigint | undefined> {
  const m = /^bounce\+(\d{1,19})\.([0-9a-f]{16})@(.+)$/.exec(address.trim().toLowerCase());
  if (!m || m[3] !== domain) return undefined;
  const id = BigInt(m[1]!);
  const want = Buffer.from(await bounceMac(db, id));
  return crypto.timingSafeEqual(want, Buffer.from(m[2]!)) ? id : undefined;
}

/** Unique without a lookup (the email's ID) and unguessable (so no one forges a reference into a thread). */
export const newMessageId = (emailId: bigint, domain: string) =>
  `<relay.${emailId}.${crypto.randomBytes(8).toString("hex")}@${domain}>`;

/** Whether a Message-ID is one we made: our own mail coming back. */
export const isOurMessageId = (messageId: string, domain: string) =>
  messageId.startsWith("<relay.") && messageId.endsWith(`@${domain}>`);

async function unsubscribeMac(db: Tx, userId: bigint): Promise<string> {
  const key = await signingKey(db);
  return crypto.createHmac("sha256", key).update(`unsubscribe:${userId}`).digest("hex").slice(0, 32);
}

/** `<user id>.<mac>`: the capability of one user's unsubscribe link, valid for as long as the user exists. */
export async function unsubscribeToken(db: Tx, userId: bigint): Promise<string> {
  return `${userId}.${await unsubscribeMac(db, userId)}`;
}

/** The user an unsubscribe token names, or undefined when it was not made by us. */
export async function verifyUnsubscribeToken(db: Tx, token: string): Promise<bigint | undefined> {
  const m = /^(\d{1,19})\.([0-9a-f]{32})$/.exec(token);
  if (!m) return undefined;
  const userId = BigInt(m[1]!);
  const want = Buffer.from(await unsubscribeMac(db, userId));
  const got = Buffer.from(m[2]!);
  return crypto.timingSafeEqual(want, got) ? userId : undefined;
}
