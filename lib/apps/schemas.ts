import { z } from "zod";
import { id, seconds } from "../contract/schemas";
import { SCOPES } from "../auth/scopes";

/** API keys (serializeApiKey), v2 only. */
export const apiKeySchema = z.strictObject({
  id,
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  created: seconds.nullable(),
  last_used: seconds.nullable(),
  revoked: z.boolean(),
});
/** POST /api_keys: the key plus its token, which no other answer ever shows. */
export const newApiKeySchema = apiKeySchema.extend({ token: z.string() });

export type ApiKey = z.infer<typeof apiKeySchema>;
export type NewApiKey = z.infer<typeof newApiKeySchema>;

export const routingModeSchema = z.enum(["off", "round_robin"]);
/** How the app's new visitor conversations are assigned (lib/conversations/routing.ts). */
export const appRoutingSchema = z.strictObject({
  routing: routingModeSchema,
  /** Open assigned conversations per operator above which routing skips them; null: no cap. */
  routing_cap: z.number().int().nullable(),
});
export type AppRouting = z.infer<typeof appRoutingSchema>;
