import crypto from "node:crypto";
import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { internal, invalid } from "../domain/errors";
import { Prisma } from "../db/generated/client";
import type { Serialized } from "../contract/schemas";
import {
  ACCENT_COLOR,
  MAX_ALLOWED_ORIGINS,
  MESSENGER_POSITIONS,
  MESSENGER_TEXT_MAX,
  type MessengerPosition,
  type MessengerSettings,
  type MessengerSettingsWithSecret,
} from "./schemas";
import { normalizeOrigin } from "./origins";

const SETTINGS = {
  appId: true,
  publicKey: true,
  allowedOrigins: true,
  identityRequired: true,
  identitySecret: true,
  accentColor: true,
  position: true,
  greeting: true,
  teamIntro: true,
  replyTimeText: true,
  offlineText: true,
  emailPrompt: true,
  updated: true,
} as const;

export type MessengerSettingsRow = Prisma.MessengerSettingsGetPayload<{ select: typeof SETTINGS }>;

/**
 * SETTINGS as a raw statement's columns (boot reads them on the driver), named as Prisma's row names them: each
 * field's column is its name in snake case (schema.prisma's @map), so the list follows SETTINGS.
 */
export const SETTINGS_COLUMNS = Prisma.raw(
  Object.keys(SETTINGS)
    .map((k) => `${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} AS "${k}"`)
    .join(", "),
);

/** `mk_` and 24 URL-safe characters (144 random bits): unguessable, so a key names one app and nothing more. */
export const newPublicKey = () => `mk_${crypto.randomBytes(18).toString("base64url")}`;
/** 32 random bytes as hex: what the site's server signs user IDs with. */
export const newIdentitySecret = () => crypto.randomBytes(32).toString("hex");

/** What an app's messenger shows before its owner changes anything. */
export const MESSENGER_DEFAULTS = {
  accentColor: "#2563eb",
  position: "right" as MessengerPosition,
  greeting: "Hi there 👋",
  teamIntro: "Ask us anything, we are here to help.",
  replyTimeText: "We usually reply within a few hours.",
  offlineText: "We are away right now. Leave a message and we will get back to you.",
  emailPrompt: "Where can we reach you?",
};

export interface MessengerSettingsInput {
  allowedOrigins?: string[];
  identityRequired?: boolean;
  accentColor?: string;
  position?: MessengerPosition;
  greeting?: string;
  teamIntro?: string;
  replyTimeText?: string;
  offlineText?: string;
  emailPrompt?: string;
}

async function ensureSettings(ctx: Ctx, appId: bigint): Promise<MessengerSettingsRow> {
  const found = await ctx.db.messengerSettings.findUnique({ where: { appId }, select: SETTINGS });
  if (found) return found;
  // Created on first use; two first reads at once both insert, and the loser's row is skipped.
  await ctx.db.messengerSettings.createMany({
    data: [
      {
        appId,
        publicKey: newPublicKey(),
        identitySecret: newIdentitySecret(),
        allowedOrigins: [],
        ...MESSENGER_DEFAULTS,
      },
    ],
    skipDuplicates: true,
  });
  const row = await ctx.db.messengerSettings.findUnique({ where: { appId }, select: SETTINGS });
  if (!row) throw internal("The messenger settings could not be created.");
  return row;
}

export async function getMessengerSettings(
  ctx: Ctx,
  input: { appId: bigint },
): Promise<MessengerSettingsRow> {
  assertApp(ctx, input.appId);
  return ensureSettings(ctx, input.appId);
}

/** Origins checked and normalized, duplicates dropped; an error names each one that is not an origin. */
function normalizeOrigins(origins: string[]): string[] {
  const problems: Record<string, string> = {};
  const out: string[] = [];
  origins.forEach((text, i) => {
    const o = normalizeOrigin(text);
    if (o === undefined)
      problems[`allowed_origins.${i}`] = `"${text}" is not an origin: write scheme://host[:port], no path`;
    else if (!out.includes(o)) out.push(o);
  });
  if (Object.keys(problems).length) throw invalid(problems);
  if (out.length > MAX_ALLOWED_ORIGINS)
    throw invalid({ allowed_origins: `must have at most ${MAX_ALLOWED_ORIGINS} origins` });
  return out;
}

function checkAppearance(input: MessengerSettingsInput): Record<string, string> {
  const problems: Record<string, string> = {};
  if (input.accentColor !== undefined && !ACCENT_COLOR.test(input.accentColor.toLowerCase()))
    problems.accent_color = "must be a colour written #rrggbb";
  if (input.position !== undefined && !MESSENGER_POSITIONS.includes(input.position))
    problems.position = `must be one of: ${MESSENGER_POSITIONS.join(", ")}`;
  const texts: [keyof typeof MESSENGER_TEXT_MAX, string | undefined][] = [
    ["greeting", input.greeting],
    ["team_intro", input.teamIntro],
    ["reply_time_text", input.replyTimeText],
    ["offline_text", input.offlineText],
    ["email_prompt", input.emailPrompt],
  ];
  for (const [field, v] of texts)
    if (v !== undefined && v.length > MESSENGER_TEXT_MAX[field])
      problems[field] = `must be at most ${MESSENGER_TEXT_MAX[field]} characters`;
  return problems;
}

/** Changes only what `input` names. */
export async function updateMessengerSettings(
  ctx: Ctx,
  input: MessengerSettingsInput & { appId: bigint },
): Promise<MessengerSettingsRow> {
  assertApp(ctx, input.appId);
  const problems = checkAppearance(input);
  if (Object.keys(problems).length) throw invalid(problems);
  const allowedOrigins = input.allowedOrigins && normalizeOrigins(input.allowedOrigins);
  await ensureSettings(ctx, input.appId);
  return ctx.db.messengerSettings.update({
    where: { appId: input.appId },
    data: {
      allowedOrigins,
      identityRequired: input.identityRequired,
      accentColor: input.accentColor?.toLowerCase(),
      position: input.position,
      greeting: input.greeting,
      teamIntro: input.teamIntro,
      replyTimeText: input.replyTimeText,
      offlineText: input.offlineText,
      emailPrompt: input.emailPrompt,
    },
    select: SETTINGS,
  });
}

/** A new identity secret: hashes made with the old one stop verifying at once. */
export async function rotateIdentitySecret(
  ctx: Ctx,
  input: { appId: bigint },
): Promise<MessengerSettingsRow> {
  assertApp(ctx, input.appId);
  await ensureSettings(ctx, input.appId);
  return ctx.db.messengerSettings.update({
    where: { appId: input.appId },
    data: { identitySecret: newIdentitySecret() },
    select: SETTINGS,
  });
}

/** A new public key: pages embedding the old one stop booting the messenger until their snippet is updated. */
export async function rotatePublicKey(ctx: Ctx, input: { appId: bigint }): Promise<MessengerSettingsRow> {
  assertApp(ctx, input.appId);
  await ensureSettings(ctx, input.appId);
  return ctx.db.messengerSettings.update({
    where: { appId: input.appId },
    data: { publicKey: newPublicKey() },
    select: SETTINGS,
  });
}

/** The identity secret is shown once, when it is made; otherwise a hint tells which one is in use. */
export function serializeMessengerSettings(
  row: MessengerSettingsRow,
  opts: { secret: true },
): Serialized<MessengerSettingsWithSecret>;
export function serializeMessengerSettings(
  row: MessengerSettingsRow,
  opts: { secret: false },
): Serialized<MessengerSettings>;
export function serializeMessengerSettings(
  row: MessengerSettingsRow,
  opts: { secret: boolean },
): Serialized<MessengerSettings> | Serialized<MessengerSettingsWithSecret> {
  return {
    app: row.appId,
    public_key: row.publicKey,
    allowed_origins: row.allowedOrigins,
    identity_required: row.identityRequired,
    accent_color: row.accentColor,
    position: row.position as MessengerPosition,
    greeting: row.greeting,
    team_intro: row.teamIntro,
    reply_time_text: row.replyTimeText,
    offline_text: row.offlineText,
    email_prompt: row.emailPrompt,
    updated: Math.floor(row.updated.getTime() / 1000),
    ...(opts.secret
      ? { identity_secret: row.identitySecret }
      : { identity_secret_hint: `${row.identitySecret.slice(0, 6)}…` }),
  };
}
