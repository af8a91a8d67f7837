import crypto from "node:crypto";
import type { Ctx } from "../auth/context";
import { denied, invalid, wrongCredentials } from "../domain/errors";
import { issueTokenPair, type TokenPair } from "../auth/refresh-tokens";
import { Prisma } from "../db/generated/client";
import type { Serialized } from "../contract/schemas";
import { sqlOf, type Queryable } from "../db/sql";
import { isOriginAllowed } from "./identity";
import { SETTINGS_COLUMNS, type MessengerSettingsRow } from "./settings";
import type { Visitor, VisitorMessenger } from "./visitor-schemas";

/** A device id: what the frame draws once per browser (at least 128 random bits, URL-safe). */
export const DEVICE_ID = /^[A-Za-z0-9_-]{22,128}$/;

const hashDevice = (deviceId: string) => crypto.createHash("sha256").update(deviceId).digest("hex");

export interface BootInput {
  publicKey: string;
  deviceId: string;
  /** The page the messenger runs on (the host page's origin, as the frame learnt it), checked against the app's. */
  origin?: string;
}

export interface Booted {
  settings: MessengerSettingsRow;
  userId: bigint;
  tokens: TokenPair;
}

/**
 * The app whose public messenger key this is, when the page's origin may run its messenger. Boot's statements are
 * raw SQL on the driver (sqlOf), as the other hot paths': every page view of a site with the messenger boots, and
 * its five statements through Prisma were a third of its CPU (docs/decisions.md).
 */
export async function settingsForKey(
  ctx: Ctx,
  publicKey: string,
  origin: string | undefined,
): Promise<MessengerSettingsRow> {
  const [settings] = await sqlOf(ctx.db).$queryRaw<MessengerSettingsRow[]>`
    SELECT ${SETTINGS_COLUMNS} FROM messenger_settings WHERE public_key = ${publicKey}`;
  if (!settings)
    throw wrongCredentials("Unknown messenger key: copy the snippet again from Settings → Messenger.");
  if (origin !== undefined && !isOriginAllowed(settings, origin)) {
    throw denied(`The messenger of this app does not run on ${origin}: add it to the allowed origins.`);
  }
  return settings;
}

/**
 * A visitor's start: the device's visitor (made, anonymous, on the device's first boot) and a new token family for
 * it. The device id is the only thing that ties a browser to its visitor, so it is long, random and kept hashed.
 */
export async function bootVisitor(ctx: Ctx, input: BootInput): Promise<Booted> {
  if (!DEVICE_ID.test(input.deviceId)) {
    throw invalid({ device_id: "must be 22 to 128 characters of A-Z, a-z, 0-9, _ and -" });
  }
  const settings = await settingsForKey(ctx, input.publicKey, input.origin);
  const appId = settings.appId;
  const deviceHash = hashDevice(input.deviceId);
  const deviceOf = async () =>
    (
      await sqlOf(ctx.db).$queryRaw<{ userId: bigint }[]>`
        SELECT user_id AS "userId" FROM messenger_devices WHERE app_id = ${appId} AND device_hash = ${deviceHash}`
    )[0];
  let device = await deviceOf();
  if (!device) {
    const user = await ctx.db.user.create({ data: { appId }, select: { id: true } });
    // Two first boots of one device at once: one row wins, the other's user stays unused (anonymous, no data).
    await ctx.db.$executeRaw(Prisma.sql`
      INSERT INTO messenger_devices (app_id, device_hash, user_id) VALUES (${appId}, ${deviceHash}, ${user.id})
      ON CONFLICT DO NOTHING`);
    device = await deviceOf();
    if (!device) throw denied("The device could not be registered.");
  }
  const tokens = await issueTokenPair(ctx.db, { kind: "visitor", appId, userId: device.userId });
  return { settings, userId: device.userId, tokens };
}

export async function loadVisitor(ctx: Ctx, userId: bigint): Promise<Serialized<Visitor>> {
  const [u] = await sqlOf(ctx.db).$queryRaw<
    { id: bigint; userId: string | null; name: string | null; email: string | null; phone: string | null }[]
  >`SELECT id, user_id AS "userId", name, email, phone FROM users WHERE id = ${userId}`;
  if (!u) throw new Error(`visitor ${userId} vanished`);
  return {
    id: u.id,
    user_id: u.userId,
    name: u.name,
    email: u.email,
    anonymous: u.userId === null && u.email === null && u.phone === null,
  };
}

export function serializeVisitorMessenger(row: MessengerSettingsRow): Serialized<VisitorMessenger> {
  return {
    app: row.appId,
    accent_color: row.accentColor,
    position: row.position === "left" ? "left" : "right",
    greeting: row.greeting,
    team_intro: row.teamIntro,
    reply_time_text: row.replyTimeText,
    offline_text: row.offlineText,
    email_prompt: row.emailPrompt,
    identity_required: row.identityRequired,
  };
}

/**
 * One conversation's unread count as an event left it: the team's messages up to `upToUs` (the conversation's
 * `last_update` in that event, µs since the epoch; a message's `created` is its transaction's last_update), so the
 * frame, which adds each later message as it arrives, counts none twice. Read ones are not counted even if read later:
 * their read event follows.
 */
export async function conversationUnreadAsOf(
  db: Queryable,
  conversationId: bigint,
  upToUs: bigint,
): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*)::bigint AS n FROM conversation_parts p
    WHERE p.conversation_id = ${conversationId} AND p.direction = 'a2u' AND p.read = false
      AND (EXTRACT(EPOCH FROM p.created) * 1000000)::bigint <= ${upToUs}`;
  return Number(row?.n ?? 0);
}

/** Operators' messages to the visitor (`a2u`: replies, never notes) it has not read, over all its conversations. */
export async function countUnread(ctx: Ctx, userId: bigint): Promise<number> {
  const [row] = await sqlOf(ctx.db).$queryRaw<{ n: bigint }[]>(Prisma.sql`
    SELECT count(*)::bigint AS n FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
    WHERE c.user_id = ${userId} AND p.direction = 'a2u' AND p.read = false`);
  return Number(row?.n ?? 0);
}
