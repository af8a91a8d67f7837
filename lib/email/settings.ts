import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import type { EmailConfig } from "../config/env";
import type { Db } from "../db/client";
import { internal, invalid } from "../domain/errors";
import type { Serialized } from "../contract/schemas";
import { emailConfig } from "./config";
import type { EmailSettings } from "./schemas";

export interface EmailSettingsRow {
  appId: bigint;
  senderName: string | null;
  addressLocal: string | null;
  continuityDelay: number;
  operatorDelay: number;
  continuity: boolean;
  operatorEmails: boolean;
  transcripts: boolean;
}

/** An app's settings with what follows from them: its name and addresses. */
export interface ResolvedEmailSettings extends EmailSettingsRow {
  appName: string;
  /** `Acme <app-1@mail.example>`'s parts: what every email is From. */
  senderName: string;
  address: string;
  local: string;
}

export const MAX_DELAY = 86_400;
const LOCAL = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;
/** Local parts that are ours: reply and bounce addresses, and other apps' default addresses. */
const RESERVED = /^(reply|bounce)\+|^app-\d+$|^(postmaster|abuse|mailer-daemon|noreply|no-reply)$/;

export const defaultLocal = (appId: bigint) => `app-${appId}`;

const SELECT = {
  appId: true,
  senderName: true,
  addressLocal: true,
  continuityDelay: true,
  operatorDelay: true,
  continuity: true,
  operatorEmails: true,
  transcripts: true,
} as const;

/** The app's settings, made with the defaults on first read (the continuity delay from EMAIL_CONTINUITY_DELAY). */
export async function loadEmailSettings(
  db: Db,
  email: EmailConfig,
  appId: bigint,
): Promise<ResolvedEmailSettings> {
  let row = await db.emailSettings.findUnique({ where: { appId }, select: SELECT });
  if (!row) {
    // Two first reads at once both insert; the loser's row is skipped.
    await db.emailSettings.createMany({
      data: [{ appId, continuityDelay: email.continuityDelay }],
      skipDuplicates: true,
    });
    row = await db.emailSettings.findUnique({ where: { appId }, select: SELECT });
  }
  const app = await db.app.findUnique({ where: { id: appId }, select: { name: true } });
  if (!row || !app) throw internal("The email settings could not be created.");
  const local = row.addressLocal ?? defaultLocal(appId);
  return {
    ...row,
    appName: app.name,
    senderName: row.senderName ?? app.name,
    local,
    address: `${local}@${email.domain}`,
  };
}

export interface EmailSettingsInput {
  senderName?: string | null;
  addressLocal?: string | null;
  continuity?: boolean;
  continuityDelay?: number;
  operatorEmails?: boolean;
  operatorDelay?: number;
  transcripts?: boolean;
}

export async function getEmailSettings(ctx: Ctx, input: { appId: bigint }) {
  assertApp(ctx, input.appId);
  return loadEmailSettings(ctx.db, emailConfig(), input.appId);
}

/** Changes only what `input` names; a null name or address goes back to the default. */
export async function updateEmailSettings(ctx: Ctx, input: EmailSettingsInput & { appId: bigint }) {
  assertApp(ctx, input.appId);
  const local = input.addressLocal?.trim().toLowerCase();
  if (local !== undefined && local !== defaultLocal(input.appId)) {
    if (!LOCAL.test(local))
      throw invalid({
        address_local:
          "must be 1 to 64 letters, digits, dots, dashes or underscores, starting and ending with a letter or digit",
      });
    if (RESERVED.test(local)) throw invalid({ address_local: `"${local}" is reserved` });
    const taken = await ctx.db.emailSettings.findFirst({
      where: { addressLocal: local, appId: { not: input.appId } },
      select: { appId: true },
    });
    if (taken) throw invalid({ address_local: `"${local}" is another app's address` });
  }
  await loadEmailSettings(ctx.db, emailConfig(), input.appId);
  await ctx.db.emailSettings.update({
    where: { appId: input.appId },
    data: {
      senderName: input.senderName === undefined ? undefined : input.senderName?.trim() || null,
      addressLocal:
        input.addressLocal === undefined
          ? undefined
          : local && local !== defaultLocal(input.appId)
            ? local
            : null,
      continuity: input.continuity,
      continuityDelay: input.continuityDelay,
      operatorEmails: input.operatorEmails,
      operatorDelay: input.operatorDelay,
      transcripts: input.transcripts,
    },
  });
  return loadEmailSettings(ctx.db, emailConfig(), input.appId);
}

export function serializeEmailSettings(
  s: ResolvedEmailSettings,
  email: EmailConfig,
): Serialized<EmailSettings> {
  return {
    app: s.appId,
    sender_name: s.senderName,
    address: s.address,
    address_local: s.local,
    domain: email.domain,
    continuity: s.continuity,
    continuity_delay: s.continuityDelay,
    operator_emails: s.operatorEmails,
    operator_delay: s.operatorDelay,
    transcripts: s.transcripts,
    smtp: email.smtpUrl !== undefined,
    inbound: { smtp_port: email.inboundPort ?? null, http: email.inboundSecret !== undefined },
  };
}
