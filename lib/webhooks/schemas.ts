import { z } from "zod";
import { id, seconds } from "../contract/schemas";

/** Webhook subscriptions and deliveries (lib/webhooks/subscriptions.ts), v2 only. */
const webhookFields = {
  id,
  app: id,
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  created: seconds.nullable(),
};
/** Create, get and update show the signing secret. */
export const webhookSchema = z.strictObject({ ...webhookFields, secret: z.string() });
/** The list masks it. */
export const webhookListedSchema = z.strictObject({ ...webhookFields, secret_hint: z.string() });

export const deliveryStatusSchema = z.enum(["pending", "succeeded", "failed"]);
export const deliverySchema = z.strictObject({
  id,
  message_id: z.string(),
  webhook: id,
  event: id.nullable(),
  type: z.string(),
  status: deliveryStatusSchema,
  attempts: z.number().int(),
  response_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  /** When the next attempt is due (pending deliveries only). */
  next_attempt: seconds.nullable(),
  created: seconds.nullable(),
  updated: seconds.nullable(),
});

export type Webhook = z.infer<typeof webhookSchema>;
export type WebhookListed = z.infer<typeof webhookListedSchema>;
export type WebhookDelivery = z.infer<typeof deliverySchema>;
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;
