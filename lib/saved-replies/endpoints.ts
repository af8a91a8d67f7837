import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { empty } from "../contract/schemas";
import {
  createSavedReply,
  deleteSavedReply,
  listSavedReplies,
  serializeSavedReply,
  updateSavedReply,
} from "./saved-replies";
import { SAVED_REPLY_BODY_MAX, SAVED_REPLY_TITLE_MAX, savedReplySchema } from "./schemas";

// New in v2. Saved replies are part of answering conversations: tokens read them with conversations-read and
// change them with conversations-write; operators of the app do both.
const TAGS = ["Saved replies"];
const shortcut = p.str({ min: 1, max: 33, trim: true });
const title = p.str({ min: 1, max: SAVED_REPLY_TITLE_MAX, trim: true });
const body = p.str({ min: 1, max: SAVED_REPLY_BODY_MAX });
const one = { id: p.appId(), reply_id: p.id() };

export const getSavedReplies = endpoint({
  method: "GET",
  path: "/apps/{id}/saved_replies",
  summary: "List the app's saved replies, by shortcut",
  tags: TAGS,
  scopes: ["conversations-read"],
  v2: {
    response: z.array(savedReplySchema),
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({
      data: (await listSavedReplies(ctx, { appId: input.id })).map(serializeSavedReply),
    }),
  },
});

export const postSavedReply = endpoint({
  method: "POST",
  path: "/apps/{id}/saved_replies",
  summary:
    "Create a saved reply: a shortcut (a-z, 0-9, _ and -, up to 32) unique in the app, a title and a body " +
    "that may hold {{visitor_name}} and {{operator_name}}, with a fallback: {{visitor_name|there}}",
  tags: TAGS,
  scopes: ["conversations-write"],
  v2: {
    response: savedReplySchema,
    params: z.object({ id: p.appId(), shortcut, title, body }),
    handler: async (ctx, input) => ({
      data: serializeSavedReply(
        await createSavedReply(ctx, {
          appId: input.id,
          shortcut: input.shortcut,
          title: input.title,
          body: input.body,
        }),
      ),
    }),
  },
});

export const postOneSavedReply = endpoint({
  method: "POST",
  path: "/apps/{id}/saved_replies/{reply_id}",
  summary: "Change a saved reply's shortcut, title or body (only the parameters given)",
  tags: TAGS,
  scopes: ["conversations-write"],
  v2: {
    response: savedReplySchema,
    params: z.object({
      ...one,
      shortcut: shortcut.optional(),
      title: title.optional(),
      body: body.optional(),
    }),
    handler: async (ctx, input) => ({
      data: serializeSavedReply(
        await updateSavedReply(ctx, {
          appId: input.id,
          replyId: input.reply_id,
          shortcut: input.shortcut,
          title: input.title,
          body: input.body,
        }),
      ),
    }),
  },
});

export const deleteOneSavedReply = endpoint({
  method: "DELETE",
  path: "/apps/{id}/saved_replies/{reply_id}",
  summary: "Delete a saved reply",
  tags: TAGS,
  scopes: ["conversations-write"],
  v2: {
    response: empty,
    params: z.object(one),
    handler: async (ctx, input) => {
      await deleteSavedReply(ctx, { appId: input.id, replyId: input.reply_id });
      return { data: {} };
    },
  },
});
