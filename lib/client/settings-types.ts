import { WEBHOOK_KINDS, type SubscribableKind } from "@/lib/eventlog/webhook-kinds";
import type { Webhook as WebhookJson, WebhookListed } from "@/lib/webhooks/schemas";

/**
 * Shapes of the Settings endpoints (API keys, webhooks, channels, operators) as the v2 API returns them: inferred
 * from the schemas the endpoints declare (type imports only).
 */

export type { Id } from "@/lib/contract/schemas";
export type { ApiKey, NewApiKey } from "@/lib/apps/schemas";
export type { Channel } from "@/lib/channels/schemas";
export type { AdminMember, AdminRole } from "@/lib/admins/schemas";
export type { WebhookDelivery, DeliveryStatus } from "@/lib/webhooks/schemas";
export type {
  MessengerSettings,
  MessengerSettingsWithSecret,
  MessengerPosition,
} from "@/lib/messenger/schemas";

export const WEBHOOK_EVENT_KINDS = WEBHOOK_KINDS;
export type WebhookEventKind = SubscribableKind;

/** Create, get and update show the secret; the list masks it (`secret_hint`). */
export type Webhook = Omit<WebhookJson, "secret"> &
  Partial<Pick<WebhookJson, "secret"> & Pick<WebhookListed, "secret_hint">>;

export const appPath = (appId: string) => `/api/apps/${encodeURIComponent(appId)}`;
