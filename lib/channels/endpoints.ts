import { z } from "zod";
import { bothVersions, endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { listChannels, serializeChannel } from "./list-channels";
import { channelSchema } from "./schemas";

const params = z.object({ id: p.appId() });

export const getChannels = endpoint({
  method: "GET",
  path: "/apps/{id}/channels",
  summary: "Get channels, with unassigned and unread counts",
  tags: ["Apps"],
  scopes: ["conversations-read"],
  ...bothVersions({
    response: z.array(channelSchema),
    params,
    handler: async (ctx, input) => ({
      data: (await listChannels(ctx, { appId: input.id })).map(serializeChannel),
    }),
  }),
});
