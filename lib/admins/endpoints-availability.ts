import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { empty } from "../contract/schemas";
import { listAvailability, serializeAvailability, setAvailability, touchActivity } from "./availability";
import { adminAvailabilitySchema } from "./schemas";

const params = z.object({ id: p.appId() });

export const getAvailability = endpoint({
  method: "GET",
  path: "/apps/{id}/availability",
  summary: "Get the availability (Available or Away) of the app's operators",
  tags: ["Apps"],
  scopes: ["conversations-read"],
  v2: {
    response: z.array(adminAvailabilitySchema),
    params,
    handler: async (ctx, input) => ({
      data: (await listAvailability(ctx, { appId: input.id })).map(serializeAvailability),
    }),
  },
});

export const postAvailability = endpoint({
  method: "POST",
  path: "/apps/{id}/availability",
  summary: "Set yourself Available or Away in the app (operators only); teammates hear it live",
  tags: ["Apps"],
  scopes: [],
  sessionOnly: true,
  v2: {
    response: adminAvailabilitySchema,
    params: z.object({ id: p.appId(), status: p.oneOf(["available", "away"]) }),
    handler: async (ctx, input) => ({
      data: serializeAvailability(await setAvailability(ctx, { appId: input.id, status: input.status })),
    }),
  },
});

export const postActivity = endpoint({
  method: "POST",
  path: "/apps/{id}/activity",
  summary: "The panel's activity ping: the operator is using the app (operators only)",
  tags: ["Apps"],
  scopes: [],
  sessionOnly: true,
  v2: {
    response: empty,
    params,
    handler: async (ctx, input) => {
      await touchActivity(ctx, { appId: input.id });
      return { data: {} };
    },
  },
});
