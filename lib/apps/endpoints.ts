import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { SCOPES } from "../auth/scopes";
import { createApiKey, listApiKeys, revokeApiKey, serializeApiKey } from "./api-keys";
import { empty } from "../contract/schemas";
import { apiKeySchema, appSettingsSchema, newApiKeySchema, officeHoursResponseSchema } from "./schemas";
import { getOfficeHours, serializeOfficeHours, setOfficeHours } from "./office-hours-service";
import { officeHoursSchema } from "./office-hours";
import { getAppSettings, serializeAppSettings, updateAppSettings } from "./time-zone";

export const getApiKeys = endpoint({
  method: "GET",
  path: "/apps/{id}/api_keys",
  summary: "List the app's API keys (operators only)",
  tags: ["Settings"],
  scopes: [],
  sessionOnly: true,
  v2: {
    response: z.array(apiKeySchema),
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({
      data: (await listApiKeys(ctx, { appId: input.id })).map(serializeApiKey),
    }),
  },
});

export const postApiKey = endpoint({
  method: "POST",
  path: "/apps/{id}/api_keys",
  summary: "Create an API key; the token is in this response only",
  tags: ["Settings"],
  scopes: [],
  sessionOnly: true,
  v2: {
    response: newApiKeySchema,
    params: z.object({
      id: p.appId(),
      name: p.str({ max: 255, trim: true }).optional(),
      scopes: p.list(p.oneOf(SCOPES)).optional(),
    }),
    handler: async (ctx, input) => {
      const { token, record } = await createApiKey(ctx, {
        appId: input.id,
        name: input.name ?? "",
        scopes: input.scopes ?? [...SCOPES],
      });
      return { data: { ...serializeApiKey(record), token } };
    },
  },
});

export const deleteApiKey = endpoint({
  method: "DELETE",
  path: "/apps/{id}/api_keys/{key_id}",
  summary: "Revoke an API key",
  tags: ["Settings"],
  scopes: [],
  sessionOnly: true,
  v2: {
    response: empty,
    params: z.object({ id: p.appId(), key_id: p.id() }),
    handler: async (ctx, input) => {
      await revokeApiKey(ctx, { appId: input.id, keyId: input.key_id });
      return { data: {} };
    },
  },
});

export const getAppSettingsEndpoint = endpoint({
  method: "GET",
  path: "/apps/{id}/settings",
  summary: "The app's settings: its name and the IANA time zone its reports count days in",
  tags: ["Settings"],
  scopes: ["conversations-read"],
  v2: {
    response: appSettingsSchema,
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({
      data: serializeAppSettings(await getAppSettings(ctx, { appId: input.id })),
    }),
  },
});

export const postAppSettings = endpoint({
  method: "POST",
  path: "/apps/{id}/settings",
  summary: "Change the app's settings: `time_zone` (an IANA zone such as Europe/Paris)",
  tags: ["Settings"],
  scopes: ["app-admin"],
  v2: {
    response: appSettingsSchema,
    params: z.object({ id: p.appId(), time_zone: p.str({ max: 64, trim: true }).optional() }),
    handler: async (ctx, input) => ({
      data: serializeAppSettings(
        await updateAppSettings(ctx, { appId: input.id, timeZone: input.time_zone }),
      ),
    }),
  },
});

export const getOfficeHoursEndpoint = endpoint({
  method: "GET",
  path: "/apps/{id}/office_hours",
  summary: "The app's office hours (in its time zone; null: always open) and whether it is open now",
  tags: ["Settings"],
  scopes: ["app-admin"],
  v2: {
    response: officeHoursResponseSchema,
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({
      data: serializeOfficeHours(await getOfficeHours(ctx, { appId: input.id })),
    }),
  },
});

export const postOfficeHours = endpoint({
  method: "POST",
  path: "/apps/{id}/office_hours",
  summary:
    'Replace the office hours: `office_hours` as JSON, {"weekly": {"mon": [["09:00", "17:00"]], …}, ' +
    '"holidays": ["2026-12-25"]}, or null for always open',
  tags: ["Settings"],
  scopes: ["app-admin"],
  v2: {
    response: officeHoursResponseSchema,
    params: z.object({ id: p.appId(), office_hours: p.json(officeHoursSchema.nullable()) }),
    handler: async (ctx, input) => ({
      data: serializeOfficeHours(await setOfficeHours(ctx, { appId: input.id, hours: input.office_hours })),
    }),
  },
});
