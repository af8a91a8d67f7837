import { WEBHOOK_KINDS, type SubscribableKind } from "@/lib/eventlog/webhook-kinds";
import type { z } from "zod";
import type { EMAIL_KINDS, EMAIL_STATES, emailPreviewSchema, inboundResultSchema } from "@/lib/email/schemas";
import type { Webhook as WebhookJson, WebhookListed } from "@/lib/webhooks/schemas";

/**
 * Shapes of the Settings endpoints (API keys, webhooks, channels, operators, email) as the v2 API returns
 * them: inferred from the schemas the endpoints declare (type imports only).
 */

export type { Id } from "@/lib/contract/schemas";
export type { ApiKey, NewApiKey } from "@/lib/apps/schemas";
export type { Channel } from "@/lib/channels/schemas";
export type { AdminMember, AdminRole } from "@/lib/admins/schemas";
export type { WebhookDelivery, DeliveryStatus } from "@/lib/webhooks/schemas";
export type {
  EmailBounce,
  EmailSettings,
  EmailDelivery,
  InboundOutcome,
  OperatorEmailPrefs,
} from "@/lib/email/schemas";
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

/** One email as composed (GET …/email/deliveries/{email_id}): the log's row plus its headers and bodies. */
export type EmailPreview = z.infer<typeof emailPreviewSchema>;
export type EmailState = (typeof EMAIL_STATES)[number];
export type EmailKind = (typeof EMAIL_KINDS)[number];
/** What became of a pasted (or received) message: appended, a new conversation, ignored, refused, a bounce. */
export type InboundResult = z.infer<typeof inboundResultSchema>;

export const appPath = (appId: string) => `/api/apps/${encodeURIComponent(appId)}`;
