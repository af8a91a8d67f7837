import crypto from "node:crypto";
import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { invalid, lookupFailed, internal } from "../domain/errors";
import { loadConfig } from "../config/env";
import { Prisma } from "../db/generated/client";
import { withEvents } from "../eventlog/append";
import { eventOf } from "../contract/socket";
import { tryRuntime } from "../server/runtime";
import { pageByKeyset, type KeyColumn } from "../db/keyset";
import type { Keyset, KeysetPage } from "../domain/keyset";
import { TEST_EVENT_TYPE, type SubscribableKind } from "../eventlog/webhook-kinds";
import { invalidateSubscriptions } from "../eventlog/webhook-state";
import { checkWebhookUrl } from "./url-guard";
import { webhookMessageId } from "./deliveries";

export const MAX_SUBSCRIPTIONS_PER_APP = 50;

const SUBSCRIPTION = {
  id: true,
  appId: true,
  url: true,
  events: true,
  secret: true,
  active: true,
  created: true,
} as const;

export type SubscriptionRow = Prisma.WebhookSubscriptionGetPayload<{ select: typeof SUBSCRIPTION }>;

const allowPrivate = () => (tryRuntime()?.config ?? loadConfig()).webhookAllowPrivate;

export const newSecret = () => `whsec_${crypto.randomBytes(24).toString("base64url")}`;

const checkUrl = (url: string) => checkWebhookUrl(url, allowPrivate());

const missing = (webhookId: bigint) => lookupFailed(`No webhook ${webhookId} in this app.`);

async function requireSubscription(ctx: Ctx, appId: bigint, webhookId: bigint): Promise<SubscriptionRow> {
  assertApp(ctx, appId);
  const row = await ctx.db.webhookSubscription.findFirst({
    where: { id: webhookId, appId },
    select: SUBSCRIPTION,
  });
  if (!row) throw missing(webhookId);
  return row;
}

export async function listWebhooks(ctx: Ctx, input: { appId: bigint }): Promise<SubscriptionRow[]> {
  assertApp(ctx, input.appId);
  return ctx.db.webhookSubscription.findMany({
    where: { appId: input.appId },
    orderBy: { id: "asc" },
    select: SUBSCRIPTION,
  });
}

export async function getWebhook(ctx: Ctx, input: { appId: bigint; webhookId: bigint }) {
  return requireSubscription(ctx, input.appId, input.webhookId);
}

export interface WebhookInput {
  url: string;
  events: SubscribableKind[];
  secret?: string;
  active?: boolean;
}

export async function createWebhook(
  ctx: Ctx,
  input: WebhookInput & { appId: bigint },
): Promise<SubscriptionRow> {
  assertApp(ctx, input.appId);
  await checkUrl(input.url);
  const row = await ctx.db.$transaction(async (tx) => {
    // Counted under the app's row lock, so parallel creates cannot pass the limit together.
    await tx.$executeRaw`SELECT 1 FROM apps WHERE id = ${input.appId} FOR UPDATE`;
    const count = await tx.webhookSubscription.count({ where: { appId: input.appId } });
    if (count >= MAX_SUBSCRIPTIONS_PER_APP)
      throw invalid({ url: `an app has at most ${MAX_SUBSCRIPTIONS_PER_APP} webhooks` });
    return tx.webhookSubscription.create({
      data: {
        appId: input.appId,
        url: input.url,
        events: [...new Set(input.events)],
        secret: input.secret ?? newSecret(),
        active: input.active ?? true,
      },
      select: SUBSCRIPTION,
    });
  });
  invalidateSubscriptions(input.appId);
  return row;
}

export async function updateWebhook(
  ctx: Ctx,
  input: Partial<WebhookInput> & { appId: bigint; webhookId: bigint; rotateSecret?: boolean },
): Promise<SubscriptionRow> {
  await requireSubscription(ctx, input.appId, input.webhookId);
  if (input.secret !== undefined && input.rotateSecret)
    throw invalid({ secret: "give a secret or rotate_secret, not both" });
  if (input.url !== undefined) await checkUrl(input.url);
  const row = await ctx.db.$transaction(async (tx) => {
    // A concurrent delete leaves nothing to update: the same LookupError as a webhook that never was.
    const [updated] = await tx.webhookSubscription.updateManyAndReturn({
      where: { id: input.webhookId, appId: input.appId },
      data: {
        url: input.url,
        events: input.events ? [...new Set(input.events)] : undefined,
        secret: input.rotateSecret ? newSecret() : input.secret,
        active: input.active,
      },
      select: SUBSCRIPTION,
    });
    if (!updated) throw missing(input.webhookId);
    // A paused subscription's backlog would otherwise burst out, stale, when it is resumed.
    if (input.active === false) {
      await tx.webhookDelivery.updateMany({
        where: { subscriptionId: input.webhookId, status: "pending", type: { not: "test" } },
        data: { status: "failed", nextAttemptAt: null, lastError: "webhook paused" },
      });
    }
    return updated;
  });
  invalidateSubscriptions(input.appId);
  return row;
}

export async function deleteWebhook(ctx: Ctx, input: { appId: bigint; webhookId: bigint }): Promise<void> {
  await requireSubscription(ctx, input.appId, input.webhookId);
  // Two concurrent deletes both find it above; the one that finds nothing left to delete loses.
  const gone = await ctx.db.webhookSubscription.deleteMany({
    where: { id: input.webhookId, appId: input.appId },
  });
  if (gone.count === 0) throw missing(input.webhookId);
  invalidateSubscriptions(input.appId);
}

const DELIVERY = {
  id: true,
  subscriptionId: true,
  eventId: true,
  type: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastResponseCode: true,
  lastError: true,
  created: true,
  updated: true,
} as const;

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof DELIVERY }>;

/**
 * Queues a `test` delivery for this one subscription. It goes through the event log like every other delivery,
 * so it is sent (and retried) exactly as they are, and survives a restart just the same.
 */
export async function sendTestWebhook(
  ctx: Ctx,
  input: { appId: bigint; webhookId: bigint },
): Promise<DeliveryRow> {
  const sub = await requireSubscription(ctx, input.appId, input.webhookId);
  const nonce = crypto.randomBytes(12).toString("hex");
  await withEvents(ctx.db, async (_tx, emit) => {
    emit(
      eventOf(TEST_EVENT_TYPE, sub, {
        webhook: sub.id,
        nonce,
        message: "A test delivery: your endpoint is reachable.",
      }),
    );
  });
  const row = await ctx.db.webhookDelivery.findFirst({
    where: { subscriptionId: sub.id, type: "test", payload: { path: ["nonce"], equals: nonce } },
    select: DELIVERY,
  });
  if (!row) throw internal("The test delivery was not queued.");
  return row;
}

export const DELIVERY_KEY: KeyColumn[] = [{ kind: "id", sql: Prisma.sql`d.id` }];

/** The delivery log of one subscription, keyset-paged by ID (the API's default: newest first). */
export async function listDeliveries(
  ctx: Ctx,
  input: { appId: bigint; webhookId: bigint; status?: string; page: Keyset },
): Promise<KeysetPage<DeliveryRow>> {
  await requireSubscription(ctx, input.appId, input.webhookId);
  const status = input.status ? Prisma.sql`AND d.status = ${input.status}` : Prisma.empty;
  const page = await pageByKeyset<{ id: bigint }>(
    input.page,
    DELIVERY_KEY,
    (r) => [r.id],
    (where, order, limit) =>
      ctx.db.$queryRaw<{ id: bigint }[]>`
        SELECT d.id FROM webhook_deliveries d
        WHERE d.subscription_id = ${input.webhookId} ${status} AND ${where}
        ORDER BY ${order} LIMIT ${limit}`,
  );
  const rows = await ctx.db.webhookDelivery.findMany({
    where: { id: { in: page.items.map((i) => i.id) } },
    select: DELIVERY,
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: page.items.flatMap((i) => byId.get(i.id) ?? []), next: page.next };
}

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** The secret is shown to whoever may manage the app's webhooks: receivers need it to verify signatures. */
export function serializeWebhook(s: SubscriptionRow, opts: { secret: boolean }) {
  return {
    id: s.id,
    app: s.appId,
    url: s.url,
    events: s.events,
    active: s.active,
    ...(opts.secret ? { secret: s.secret } : { secret_hint: `${s.secret.slice(0, 10)}…` }),
    created: seconds(s.created),
  };
}

export function serializeDelivery(d: DeliveryRow) {
  return {
    id: d.id,
    message_id: webhookMessageId(d.id),
    webhook: d.subscriptionId,
    event: d.eventId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    response_code: d.lastResponseCode,
    last_error: d.lastError,
    next_attempt: d.status === "pending" ? seconds(d.nextAttemptAt) : null,
    created: seconds(d.created),
    updated: seconds(d.updated),
  };
}
