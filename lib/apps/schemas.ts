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
