import { z } from "zod";
import type { Ctx } from "../auth/context";
import { endpoint } from "../api/endpoint";
import { validation } from "../api/errors";
import { p } from "../contract/zod";
import {
  assignConversation,
  closeConversation,
  delayConversation,
  reopenConversation,
  tagConversation,
  type Changed,
} from "./change";
import { adminRef, randomId, tag, timestamp, userRef } from "./params";
import { markConversationRead } from "./read";
import { orNone } from "./endpoints-shared";
import { empty } from "../contract/schemas";
import { changeSchema } from "../parts/schemas";

/** A state change answers with the system part it stored, or `{}` when there was nothing to change. */
const changed = (c: Changed) => ({ data: c ?? {} });

const by = { from_admin: adminRef().optional(), random_id: randomId().optional() };
const byV1 = { from_admin: p.id().optional(), random_id: randomId().optional() };

const assignParams = (from: typeof by | typeof byV1) =>
  z.object({
    id: p.id(),
    // Empty, 0 or null unassigns.
    admin: z
      .preprocess(
        orNone,
        z.union([z.literal("none"), p.id({ allowZero: true })], {
          error: "must be an admin ID, or empty to unassign",
        }),
      )
      .optional(),
    ...from,
  });

const assign = async (ctx: Ctx, input: z.output<ReturnType<typeof assignParams>>) =>
  changed(
    await assignConversation(ctx, {
      conversationId: input.id,
      admin: input.admin === undefined || input.admin === "none" || input.admin === 0n ? null : input.admin,
      fromAdmin: input.from_admin,
      randomId: input.random_id,
    }),
  );

export const postAssign = endpoint({
  method: "POST",
  path: "/conversations/{id}/assign",
  summary: "Assign the conversation to an operator (empty admin unassigns)",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  v1: { params: assignParams(byV1), response: changeSchema, handler: assign },
  v2: { params: assignParams(by), response: changeSchema, handler: assign },
});

const closeParams = (from: typeof by | typeof byV1) => z.object({ id: p.id(), ...from });
type CloseInput = z.output<ReturnType<typeof closeParams>>;
const close = async (ctx: Ctx, input: CloseInput) =>
  changed(
    await closeConversation(ctx, {
      conversationId: input.id,
      fromAdmin: input.from_admin,
      randomId: input.random_id,
    }),
  );

export const postClose = endpoint({
  method: "POST",
  path: "/conversations/{id}/close",
  summary: "Close the conversation (a visitor's reply reopens it)",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  v1: { params: closeParams(byV1), response: changeSchema, handler: close },
  v2: { params: closeParams(by), response: changeSchema, handler: close },
});

export const postReopen = endpoint({
  method: "POST",
  path: "/conversations/{id}/reopen",
  summary: "Reopen a closed conversation",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  v2: {
    response: changeSchema,
    params: closeParams(by),
    handler: async (ctx, input) =>
      changed(
        await reopenConversation(ctx, {
          conversationId: input.id,
          fromAdmin: input.from_admin,
          randomId: input.random_id,
        }),
      ),
  },
});

export const postDelay = endpoint({
  method: "POST",
  path: "/conversations/{id}/delay",
  summary: "Snooze the conversation until a time (Unix seconds); cancel=true or until=0 wakes it now",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  v2: {
    response: changeSchema,
    params: z.object({ id: p.id(), until: timestamp().optional(), cancel: p.bool().optional(), ...by }),
    handler: async (ctx, input) => {
      if (input.until === undefined && !input.cancel)
        throw validation({ until: "is required (or cancel=true)" });
      if (input.until && input.cancel) throw validation({ cancel: "cannot be combined with until" });
      const until = input.cancel || !input.until ? null : new Date(Math.round(input.until * 1000));
      return changed(
        await delayConversation(ctx, {
          conversationId: input.id,
          until,
          fromAdmin: input.from_admin,
          randomId: input.random_id,
        }),
      );
    },
  },
});

export const postRead = endpoint({
  method: "POST",
  path: "/conversations/{id}/read",
  summary: "Mark as read: by an operator (default) or, with from_user, by the visitor",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  asUserWith: "from_user",
  v2: {
    response: empty,
    params: z
      .object({ id: p.id(), from_user: userRef().optional(), from_admin: adminRef().optional() })
      .refine((v) => v.from_user === undefined || v.from_admin === undefined, {
        path: ["from_admin"],
        error: "cannot be combined with from_user",
      }),
    handler: async (ctx, input) => {
      await markConversationRead(ctx, {
        conversationId: input.id,
        fromUser: input.from_user,
        fromAdmin: input.from_admin,
      });
      return { data: {} };
    },
  },
});

const tagV1 = z.object({ id: p.id(), action: p.oneOf(["add", "delete"]), tag: tag(), ...byV1 });
const tagV2 = z.object({ id: p.id(), action: p.oneOf(["add", "delete"]).optional(), tag: tag(), ...by });
const untagV1 = z.object({ id: p.id(), tag: tag(), ...byV1 });
const untagV2 = z.object({ id: p.id(), tag: tag(), ...by });

const tagWith =
  (fixed?: "delete") =>
  async (
    ctx: Ctx,
    input: {
      id: bigint;
      tag: string;
      action?: "add" | "delete";
      from_admin?: bigint | "default_admin";
      random_id?: number;
    },
  ) =>
    changed(
      await tagConversation(ctx, {
        conversationId: input.id,
        tag: input.tag,
        action: fixed ?? input.action ?? "add",
        fromAdmin: input.from_admin,
        randomId: input.random_id,
      }),
    );

export const postTag = endpoint({
  method: "POST",
  path: "/conversations/{id}/tag",
  summary: "Add a tag (v1: action add or delete); 200 when already present or absent",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  v1: { params: tagV1, response: changeSchema, handler: tagWith() },
  v2: { params: tagV2, response: changeSchema, handler: tagWith() },
});

export const deleteTag = endpoint({
  method: "DELETE",
  path: "/conversations/{id}/tag",
  summary: "Remove a tag; 200 when it was absent",
  tags: ["Conversations"],
  scopes: ["conversations-write"],
  v1: { params: untagV1, response: changeSchema, handler: tagWith("delete") },
  v2: { params: untagV2, response: changeSchema, handler: tagWith("delete") },
});
