import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { getRouting, updateRouting } from "./routing";
import { appRoutingSchema } from "./schemas";

export const getAppRouting = endpoint({
  method: "GET",
  path: "/apps/{id}/routing",
  summary: "How new visitor conversations are assigned: off, or round robin among Available operators",
  tags: ["Settings"],
  scopes: ["app-admin"],
  v2: {
    response: appRoutingSchema,
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({ data: await getRouting(ctx, { appId: input.id }) }),
  },
});

export const postAppRouting = endpoint({
  method: "POST",
  path: "/apps/{id}/routing",
  summary: "Turn round-robin routing on or off, with a cap of open conversations per operator (0: none)",
  tags: ["Settings"],
  scopes: ["app-admin"],
  v2: {
    response: appRoutingSchema,
    params: z.object({
      id: p.appId(),
      routing: p.oneOf(["off", "round_robin"]).optional(),
      routing_cap: p.int({ min: 0, max: 10_000 }).optional(),
    }),
    handler: async (ctx, input) => ({
      data: await updateRouting(ctx, { appId: input.id, routing: input.routing, cap: input.routing_cap }),
    }),
  },
});
