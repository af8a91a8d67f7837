import { z } from "zod";
import { id } from "../contract/schemas";
import { SCOPES } from "../auth/scopes";

/** The operator behind a session (login and me), with the CSRF token the panel sends back. */
export const sessionSchema = z.strictObject({
  admin: z.strictObject({ id, name: z.string(), email: z.string(), avatar: z.string() }),
  apps: z.array(z.strictObject({ id, name: z.string(), role: z.enum(["owner", "operator"]) })),
  csrf_token: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;

/** GET /ping: who the caller is. */
export const whoamiSchema = z.discriminatedUnion("actor", [
  z.strictObject({ actor: z.literal("token"), app: id, scopes: z.array(z.enum(SCOPES)) }),
  z.strictObject({ actor: z.literal("operator"), admin: id, apps: z.array(id) }),
  z.strictObject({ actor: z.literal("anonymous") }),
]);

/** API v3 token-generating methods (key exchange, refresh, operator login): the pair, in the envelope's `data`. */
export const tokenPairSchema = z.strictObject({
  access_token: z
    .string()
    .meta({ description: "A signed JWT (EdDSA); send it as `Authorization: Bearer …`" }),
  refresh_token: z
    .string()
    .meta({ description: "Opaque, single use: POST /auth/token with grant_type=refresh_token" }),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int().meta({ description: "Seconds the access token is valid for" }),
});
export type TokenPairData = z.infer<typeof tokenPairSchema>;
