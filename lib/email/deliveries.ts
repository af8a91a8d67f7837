import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { Prisma } from "../db/generated/client";
import { lookupFailed } from "../domain/errors";
import type { Serialized } from "../contract/schemas";
import type { Keyset, KeysetPage } from "../domain/keyset";
import { pageByKeyset, type KeyColumn } from "../db/keyset";
import type { EmailDelivery } from "./schemas";

export const EMAIL_KEY: KeyColumn[] = [{ kind: "id", sql: Prisma.sql`e.id` }];

const SELECT = {
  id: true,
  appId: true,
  kind: true,
  conversationId: true,
  toAddress: true,
  toName: true,
  fromName: true,
  fromAddress: true,
  replyTo: true,
  subject: true,
  messageId: true,
  state: true,
  attempts: true,
  nextAttemptAt: true,
  lastError: true,
  created: true,
  sentAt: true,
} as const;
type EmailRow = Prisma.EmailGetPayload<{ select: typeof SELECT }>;

/** The app's emails, newest first (keyset-paged by ID), optionally of one state or one conversation. */
export async function listEmails(
  ctx: Ctx,
  input: { appId: bigint; state?: string; conversationId?: bigint; page: Keyset },
): Promise<KeysetPage<EmailRow>> {
  assertApp(ctx, input.appId);
  const state = input.state ? Prisma.sql`AND e.state = ${input.state}` : Prisma.empty;
  const conv = input.conversationId
    ? Prisma.sql`AND e.conversation_id = ${input.conversationId}`
    : Prisma.empty;
  const page = await pageByKeyset<{ id: bigint }>(
    input.page,
    EMAIL_KEY,
    (r) => [r.id],
    (where, order, limit) =>
      ctx.db.$queryRaw<{ id: bigint }[]>`
        SELECT e.id FROM emails e WHERE e.app_id = ${input.appId} ${state} ${conv} AND ${where}
        ORDER BY ${order} LIMIT ${limit}`,
  );
  const rows = await ctx.db.email.findMany({
    where: { id: { in: page.items.map((i) => i.id) } },
    select: SELECT,
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: page.items.flatMap((i) => byId.get(i.id) ?? []), next: page.next };
}

/** One email as composed: its headers and both bodies (the preview in Settings → Email). */
export async function getEmail(ctx: Ctx, input: { appId: bigint; emailId: bigint }) {
  assertApp(ctx, input.appId);
  const row = await ctx.db.email.findFirst({
    where: { id: input.emailId, appId: input.appId },
    select: { ...SELECT, text: true, html: true },
  });
  if (!row) throw lookupFailed(`Email ${input.emailId} does not exist in this app.`);
  return row;
}

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
const named = (name: string, address: string) => (name ? `${name} <${address}>` : address);

export function serializeEmail(e: EmailRow): Serialized<EmailDelivery> {
  return {
    id: e.id,
    app: e.appId,
    kind: e.kind as EmailDelivery["kind"],
    conversation: e.conversationId,
    to: named(e.toName, e.toAddress),
    subject: e.subject,
    message_id: e.messageId,
    state: e.state as EmailDelivery["state"],
    attempts: e.attempts,
    next_attempt: e.state === "deferred" ? seconds(e.nextAttemptAt) : null,
    last_error: e.lastError,
    created: seconds(e.created)!,
    sent_at: seconds(e.sentAt),
  };
}

export function serializeEmailPreview(e: EmailRow & { text: string; html: string }) {
  return {
    ...serializeEmail(e),
    from: named(e.fromName, e.fromAddress),
    reply_to: e.replyTo,
    text: e.text,
    html: e.html,
  };
}

/** Whether the app stopped sending to an address after a hard bounce (the user card says so). */
export async function getBounce(ctx: Ctx, input: { appId: bigint; address: string }) {
  assertApp(ctx, input.appId);
  const address = input.address.trim().toLowerCase();
  const row = await ctx.db.emailBounce.findUnique({
    where: { appId_address: { appId: input.appId, address } },
    select: { reason: true, created: true },
  });
  return {
    address,
    bouncing: row !== null,
    reason: row?.reason ?? null,
    since: seconds(row?.created ?? null),
  };
}
