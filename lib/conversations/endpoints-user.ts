import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { v1Keyset, v1PageParams, v2Keyset, v2PageParams } from "../api/pagination";
import { p } from "../contract/zod";
import { conversationPage } from "./endpoints-shared";
import { conversationSwitches } from "./params";
import { CONVERSATION_KEY } from "./list";
import { LIST_FIELDS, pickFields } from "./view";
import { listUserConversations, RECIPIENT_TYPES } from "./user-conversations";
import { userRefParams } from "../users/resolve";
import { v1PageMeta, v2PageMeta } from "../contract/schemas";
import { conversationV1Schema, conversationV2Schema } from "./schemas";

export const getUserConversations = endpoint({
  method: "GET",
  path: "/users/{id}/conversations",
  summary: "Get a user's conversations, newest last_update first",
  tags: ["Users"],
  scopes: ["user-read", "conversations-read"],
  v1: {
    response: z.array(conversationV1Schema),
    meta: v1PageMeta,
    params: z.object({ ...userRefParams, ...v1PageParams }),
    handler: async (ctx, input, req) => {
      const keyset = v1Keyset(input, CONVERSATION_KEY);
      const page = await listUserConversations(ctx, {
        user: input,
        // v1 results carry no user object.
        fields: { ...LIST_FIELDS, user: false },
        page: keyset,
      });
      return conversationPage(ctx, req, 1, keyset, page);
    },
  },
  v2: {
    response: z.array(conversationV2Schema),
    meta: v2PageMeta,
    params: z.object({
      ...userRefParams,
      with_user_replies_only: p.bool().optional(),
      recipient_type: p.oneOf(RECIPIENT_TYPES).optional(),
      ...conversationSwitches,
      ...v2PageParams,
    }),
    handler: async (ctx, input, req) => {
      const keyset = v2Keyset(input, CONVERSATION_KEY);
      const page = await listUserConversations(ctx, {
        user: input,
        withUserRepliesOnly: input.with_user_replies_only,
        recipientType: input.recipient_type,
        fields: pickFields(LIST_FIELDS, input),
        page: keyset,
      });
      return conversationPage(ctx, req, 2, keyset, page);
    },
  },
});
