import { z } from "zod";
import type { Ctx } from "../auth/context";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { UPLOAD_BODY_LIMIT } from "../attachments/store";
import { serializePart } from "../parts/serialize";
import { adminRef, jsonObject, quickReply, randomId, text, userRef } from "./params";
import { clickQuickReply } from "./quick-reply";
import { replyToConversation } from "./reply";
import { setTyping } from "./typing";
import { responseUrls } from "./endpoints-shared";
import { empty } from "../contract/schemas";
import { partSchema } from "../parts/schemas";
import { replyV1Schema, replyV2Schema } from "./schemas";

/** A message has one author: a visitor or an operator. */
function oneAuthor(v: { from_user?: unknown; from_admin?: unknown }, ctx: z.RefinementCtx) {
  if (v.from_user !== undefined && v.from_user !== false && v.from_admin !== undefined) {
    ctx.addIssue({ code: "custom", path: ["from_admin"], message: "cannot be combined with from_user" });
  }
}

const v2Reply = z
  .object({
    id: p.id(),
    body: text().optional(),
    body_json: jsonObject().optional(),
    attachment: p.file().optional(),
    attachment_file_name: text({ min: 1, max: 255 }).optional(),
    from_user: userRef().optional(),
    from_admin: adminRef().optional(),
    type: p.oneOf(["reply_admin", "note", "article"]).optional(),
    external_id: text({ min: 1, max: 255 }).optional(),
    random_id: randomId().optional(),
    auto_assign: p.id().optional(),
    auto_assign_random_id: randomId().optional(),
    referrer: text({ max: 2048 }).optional(),
    actions: p
      .json(z.array(quickReply, { error: "must be a JSON array" }).max(20, { error: "at most 20 buttons" }))
      .optional(),
  })
  .superRefine(oneAuthor);

const v1Reply = z
  .object({
    id: p.id(),
    body: text({ min: 1 }),
    from_user: p.bool().optional(),
    from_admin: p.id().optional(),
    type: p.oneOf(["reply_admin", "note"]).optional(),
    random_id: randomId().optional(),
    auto_assign: p.id().optional(),
    auto_assign_random_id: randomId().optional(),
  })
  .superRefine(oneAuthor);

export const postReply = endpoint({
  method: "POST",
  path: "/conversations/{id}/reply",
  summary: "Reply, add a note or an article, or send as the visitor",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  asUserWith: "from_user",
  bodyLimit: UPLOAD_BODY_LIMIT,
  v1: {
    response: replyV1Schema,
    params: v1Reply,
    handler: async (ctx, input) => {
      const r = await replyToConversation(ctx, {
        conversationId: input.id,
        body: input.body,
        fromUser: input.from_user ? "default_user" : undefined,
        fromAdmin: input.from_admin,
        type: input.type,
        randomId: input.random_id,
        autoAssign: input.auto_assign,
        autoAssignRandomId: input.auto_assign_random_id,
      });
      return { data: { id: r.part.id, ...(r.assignPart ? { id_assign_part: r.assignPart.id } : {}) } };
    },
  },
  v2: {
    response: replyV2Schema,
    params: v2Reply,
    handler: async (ctx, input, req) => {
      const r = await replyToConversation(ctx, {
        conversationId: input.id,
        body: input.body,
        bodyJson: input.body_json,
        attachment: input.attachment,
        attachmentFileName: input.attachment_file_name,
        fromUser: input.from_user,
        fromAdmin: input.from_admin,
        type: input.type,
        externalId: input.external_id,
        randomId: input.random_id,
        autoAssign: input.auto_assign,
        autoAssignRandomId: input.auto_assign_random_id,
        referrer: input.referrer,
        actions: input.actions,
      });
      const urls = await responseUrls(ctx, req);
      const data = {
        ...serializePart(r.part, { version: 2, urls }),
        ...(r.assignPart ? { assign_part: serializePart(r.assignPart, { version: 2, urls }) } : {}),
      };
      return { data };
    },
  },
});

export const postQuickReply = endpoint({
  method: "POST",
  path: "/conversations/{id}/quickreply",
  summary: "A visitor's click on a quick-reply button: their reply with the button's body and meta_data",
  tags: ["Conversations"],
  scopes: ["conversations-write", "as-user"],
  v2: {
    response: partSchema,
    params: z.object({
      id: p.id(),
      part: p.id(),
      action: p.int({ min: 0, max: 19 }),
      from_user: userRef().optional(),
      random_id: randomId().optional(),
    }),
    handler: async (ctx, input, req) => {
      const r = await clickQuickReply(ctx, {
        conversationId: input.id,
        partId: input.part,
        action: input.action,
        fromUser: input.from_user,
        randomId: input.random_id,
      });
      return { data: serializePart(r.part, { version: 2, urls: await responseUrls(ctx, req) }) };
    },
  },
});

const typingParams = z
  .object({
    id: p.id(),
    body: text({ max: 10_000 }).optional(),
    from_user: userRef().optional(),
    from_admin: adminRef().optional(),
    /** An operator writing a note: delivered to operators (with `note: true`), never to the visitor. */
    note: p.bool().optional(),
  })
  .superRefine(oneAuthor);

const typing = {
  response: empty,
  params: typingParams,
  handler: async (ctx: Ctx, input: z.output<typeof typingParams>) => {
    await setTyping(ctx, {
      conversationId: input.id,
      body: input.body ?? "",
      fromUser: input.from_user,
      fromAdmin: input.from_admin,
      note: input.note,
    });
    return { data: {} };
  },
};

export const postSetTyping = endpoint({
  method: "POST",
  path: "/conversations/{id}/settyping",
  summary: "Someone is typing (not stored; delivered on conversation_typing)",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  asUserWith: "from_user",
  v1: { ...typing },
  v2: typing,
});
