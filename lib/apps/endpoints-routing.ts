import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { getRouting, updateRouting } from "./routing";
import { appRoutingSchema } from "./schemas";

const MAX_ID = 2n ** 63n - 1n;

/** `{"<channel ID>": [admin IDs]}`: each channel named gets exactly these operators ([]: all of the app's again). */
const channelOperators = p
  .json(
    z
      .record(
        z.string().regex(/^\d{1,19}$/, { error: "must be keyed by channel IDs" }),
        z.array(p.id()).max(100, { error: "must name at most 100 operators" }),
        { error: 'must be an object {"<channel ID>": [admin IDs]}' },
      )
      .refine((o) => Object.keys(o).length <= 100, { error: "must name at most 100 channels" })
      .refine((o) => Object.keys(o).every((k) => BigInt(k) > 0n && BigInt(k) <= MAX_ID), {
        error: "must be keyed by channel IDs",
      }),
  )
  .meta({
    description: 'channel ID → the operators its new conversations are routed among, e.g. {"12": [3, 4]}',
  });

export const getAppRouting = endpoint({
  method: "GET",
  path: "/apps/{id}/routing",
  summary:
    "How conversations are assigned: new visitor conversations off, round robin (turns) or balanced (fewest " +
    "open) among Available operators, and whether a reply assigns",
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
  summary:
    "Set routing (off, round_robin: strict turns, balanced: fewest open) with a cap of open conversations per " +
    "operator (0: none), restrict channels to some operators, and turn assign-on-reply on or off",
  tags: ["Settings"],
  scopes: ["app-admin"],
  v2: {
    response: appRoutingSchema,
    params: z.object({
      id: p.appId(),
      // "round_robin" before "balanced" existed meant fewest open; old clients now get what the name says.
      routing: p.oneOf(["off", "round_robin", "balanced"]).optional(),
      routing_cap: p.int({ min: 0, max: 10_000 }).optional(),
      assign_on_reply: p.bool().optional(),
      channel_operators: channelOperators.optional(),
    }),
    handler: async (ctx, input) => ({
      data: await updateRouting(ctx, {
        appId: input.id,
        routing: input.routing,
        cap: input.routing_cap,
        assignOnReply: input.assign_on_reply,
        channels:
          input.channel_operators &&
          new Map(Object.entries(input.channel_operators).map(([k, ops]) => [BigInt(k), ops])),
      }),
    }),
  },
});
