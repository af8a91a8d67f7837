/** Shapes of the Settings endpoints (API keys, webhooks, channels) as the v2 API returns them. */
import { WEBHOOK_KINDS, type SubscribableKind } from "@/lib/webhooks/kinds";

export type Id = string | number;

export interface ApiKey {
  id: Id;
  name: string;
  prefix: string;
  scopes: string[];
  /** Seconds since the epoch. */
  created: number | null;
  last_used: number | null;
  revoked: boolean;
}

/** POST /api_keys: the key plus its token, which no other response ever shows. */
export interface NewApiKey extends ApiKey {
  token: string;
}

export const WEBHOOK_EVENT_KINDS = WEBHOOK_KINDS;
export type WebhookEventKind = SubscribableKind;

export interface Webhook {
  id: Id;
  app: Id;
  url: string;
  events: string[];
  active: boolean;
  /** Present on create, get and update. */
  secret?: string;
  /** The list masks the secret. */
  secret_hint?: string;
  created: number | null;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

export interface WebhookDelivery {
  id: Id;
  message_id: string;
  webhook: Id;
  event: Id;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  response_code: number | null;
  last_error: string | null;
  /** When the next attempt is due (pending deliveries only), seconds. */
  next_attempt: number | null;
  created: number | null;
  updated: number | null;
}

export interface Channel {
  id: Id;
  name: string;
  type: string;
  avatar: string;
  droppable: boolean;
  not_assigned_count: number;
  not_read_count: number;
  read_permission: unknown;
}

export const appPath = (appId: string) => `/api/apps/${encodeURIComponent(appId)}`;

export type OperatorRole = "owner" | "operator";

/** GET /apps/{id}/admins: a member of the app. */
export interface Operator {
  id: Id;
  type: "admin";
  name: string;
  email: string;
  avatar: string;
  role: OperatorRole;
  /** Seconds since the epoch: when they joined the app. */
  created: number;
}
