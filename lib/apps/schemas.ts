import { z } from "zod";
import { officeHoursSchema } from "./office-hours";
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

/** The app's own settings (GET/POST /apps/{id}/settings). */
export const appSettingsSchema = z.strictObject({ id, name: z.string(), time_zone: z.string() });
export type AppSettings = z.infer<typeof appSettingsSchema>;

/** An IANA zone name Intl knows ("UTC", "Europe/Paris"); browser-safe, so the panel checks the same way. */
export function isTimeZone(tz: string): boolean {
  if (tz === "" || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
/** Off; round robin: strict turns among Available operators; balanced: to whoever has the fewest open. */
export const routingModeSchema = z.enum(["off", "round_robin", "balanced"]);
/** How the app's conversations are assigned (lib/conversations/routing.ts, and reply.ts for assign_on_reply). */
export const appRoutingSchema = z.strictObject({
  routing: routingModeSchema,
  /** Open assigned conversations per operator above which routing skips them; null: no cap. */
  routing_cap: z.number().int().nullable(),
  /** An operator's reply to an unassigned conversation assigns it to them. */
  assign_on_reply: z.boolean(),
  /** Channels that route among some operators only: channel ID → their admin IDs. Other channels use them all. */
  channel_operators: z.record(z.string(), z.array(id)),
});
export type AppRouting = z.infer<typeof appRoutingSchema>;

/** GET/POST /apps/{id}/office_hours. */
export const officeHoursResponseSchema = z.strictObject({
  app: id,
  time_zone: z.string(),
  office_hours: officeHoursSchema
    .nullable()
    .describe("Weekly ranges of local time and holidays; null: always open"),
  open_now: z.boolean(),
  opens_at: z.iso
    .datetime()
    .nullable()
    .describe("When the app next opens, while it is closed; null when open, or not opening within 14 days"),
});
export type OfficeHoursState = z.infer<typeof officeHoursResponseSchema>;
