import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { v1Keyset, v1PageParams, v2Keyset, v2PageParams } from "../api/pagination";
import { p } from "../contract/zod";
import { countConversations } from "./counts";
import { CONVERSATION_KEY, listAppConversations } from "./list";
import { conversationFilterParams, conversationSwitches, filtersOf, tag } from "./params";
import { LIST_FIELDS, pickFields } from "./view";
import { conversationPage, orNone } from "./endpoints-shared";
import { v1PageMeta, v2PageMeta } from "../contract/schemas";
import { conversationV1Schema, conversationV2Schema, countsResultSchema } from "./schemas";

const v2Params = z.object({
  id: p.appId(),
  ...conversationSwitches,
  // `channel` filters here, so the channel object has its own switch.
  ...conversationFilterParams,
  include_channel: p.bool().optional(),
  ...v2PageParams,
});

const v1Params = z.object({
  id: p.appId(),
  include_not_assigned: p.bool().optional(),
  closed: p.bool().optional(),
  // v1: an admin's ID, `null` for unassigned ones, or 0 (with include_not_assigned) for the same.
  assigned: z
    .preprocess(
      orNone,
      z.union([z.literal("none"), p.id({ allowZero: true })], { error: "must be an admin ID, 0 or null" }),
    )
    .optional(),
  tags: p.list(tag(), { max: 50 }).optional(),
  channel: p.id({ allowZero: true }).optional(),
  ...v1PageParams,
});

const assignedFilter = (a: bigint | "none" | undefined) => (a === 0n ? "none" : a);

export const getAppConversations = endpoint({
  method: "GET",
  path: "/apps/{id}/conversations",
  summary: "Get app conversations (the Inbox list), newest last_update first",
  tags: ["Apps"],
  scopes: ["conversations-read"],
  v1: {
    response: z.array(conversationV1Schema),
    meta: v1PageMeta,
    params: v1Params,
    handler: async (ctx, input, req) => {
      const keyset = v1Keyset(input, CONVERSATION_KEY);
      const page = await listAppConversations(ctx, {
        appId: input.id,
        filters: {
          closed: input.closed,
          assigned: assignedFilter(input.assigned),
          includeNotAssigned: input.include_not_assigned,
          tags: input.tags,
          channel: input.channel,
        },
        fields: LIST_FIELDS,
        page: keyset,
      });
      return conversationPage(ctx, req, 1, keyset, page);
    },
  },
  v2: {
    response: z.array(conversationV2Schema),
    meta: v2PageMeta,
    params: v2Params,
    handler: async (ctx, input, req) => {
      const keyset = v2Keyset(input, CONVERSATION_KEY);
      const page = await listAppConversations(ctx, {
        appId: input.id,
        filters: filtersOf(input),
        fields: pickFields(LIST_FIELDS, { ...input, channel: input.include_channel }),
        page: keyset,
      });
      return conversationPage(ctx, req, 2, keyset, page);
    },
  },
});

export const getConversationCounts = endpoint({
  method: "GET",
  path: "/apps/{id}/conversations/counts",
  summary: "Counters of the Inbox tabs: open, closed, delayed, mine, unassigned, and per channel",
  tags: ["Apps"],
  scopes: ["conversations-read"],
  v2: {
    response: countsResultSchema,
    params: z.object({ id: p.appId(), admin: p.id().optional() }),
    handler: async (ctx, input) => ({
      data: await countConversations(ctx, { appId: input.id, admin: input.admin }),
    }),
  },
});
