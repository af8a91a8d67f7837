import { z } from "zod";
import { endpoint } from "../../api/endpoint";
import { v1Keyset, v1Meta, v1PageParams, v2Keyset, v2Meta, v2PageParams } from "../../api/pagination";
import { p } from "../../api/zod";
import { serializePart } from "../../parts/serialize";
import { getConversation, listConversationParts, PART_KEY } from "../get";
import { conversationSwitches, partSwitches } from "../params";
import { pickFields, serializeConversation, SINGLE_FIELDS } from "../view";
import { responseUrls } from "./shared";
import { v1PageMeta, v2PageMeta } from "../../api/schemas";
import { partSchema } from "../../parts/schemas";
import { conversationV1Schema, conversationV2Schema } from "../schemas";

export const getConversationById = endpoint({
  method: "GET",
  path: "/conversations/{id}",
  summary: "Get a conversation",
  tags: ["Conversations"],
  scopes: ["conversations-read"],
  v1: {
    response: conversationV1Schema,
    params: z.object({ id: p.id() }),
    handler: async (ctx, input, req) => {
      const view = await getConversation(ctx, { id: input.id, fields: SINGLE_FIELDS });
      return { data: serializeConversation(view, { version: 1, urls: await responseUrls(ctx, req) }) };
    },
  },
  v2: {
    response: conversationV2Schema,
    params: z.object({ id: p.id(), ...conversationSwitches }),
    handler: async (ctx, input, req) => {
      const view = await getConversation(ctx, { id: input.id, fields: pickFields(SINGLE_FIELDS, input) });
      return { data: serializeConversation(view, { version: 2, urls: await responseUrls(ctx, req) }) };
    },
  },
});

export const getConversationParts = endpoint({
  method: "GET",
  path: "/conversations/{id}/parts",
  summary: "Get conversation parts, paged by part ID (newest first)",
  tags: ["Conversations"],
  scopes: ["conversations-read"],
  v1: {
    response: z.array(partSchema),
    meta: v1PageMeta,
    params: z.object({ id: p.id(), ...v1PageParams }),
    handler: async (ctx, input, req) => {
      const keyset = v1Keyset(input, PART_KEY);
      const page = await listConversationParts(ctx, { conversationId: input.id, page: keyset });
      const urls = await responseUrls(ctx, req);
      return {
        data: page.items.map((x) => serializePart(x, { version: 1, urls })),
        meta: v1Meta(PART_KEY, keyset, page),
      };
    },
  },
  v2: {
    response: z.array(partSchema),
    meta: v2PageMeta,
    params: z.object({ id: p.id(), ...partSwitches, ...v2PageParams }),
    handler: async (ctx, input, req) => {
      const keyset = v2Keyset(input, PART_KEY);
      const page = await listConversationParts(ctx, { conversationId: input.id, page: keyset });
      const urls = await responseUrls(ctx, req);
      return {
        data: page.items.map((x) => serializePart(x, { version: 2, urls, fields: input })),
        meta: v2Meta(PART_KEY, keyset, page),
      };
    },
  },
});
