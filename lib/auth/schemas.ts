import { z } from "zod";
import { id } from "../contract/schemas";
import { SCOPES } from "./scopes";

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
