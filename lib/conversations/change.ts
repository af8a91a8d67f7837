import type { Ctx } from "../auth/context";
import { sqlOf, type Queryable } from "../db/sql";
import { invalid } from "../domain/errors";
import { withEvents, type Emit, type LogEvent } from "../eventlog/append";
import { attachmentUrls, publicBase, type AttachmentUrl } from "../attachments/sign";
import { appendParts, type PartDraft } from "../parts/append";
import { seconds } from "../parts/serialize";
import { lockOwnConversation, requireMember, resolveAdmin, sentVia, type AdminRef } from "./actors";
import { publishChange } from "./events";
import { requestRating } from "./csat-request";
import { eventOf } from "../contract/socket";
import type { Serialized } from "../contract/schemas";
import type { Part } from "../parts/schemas";
import type { ConversationRow } from "./rows";

/** What a state change returns: the system part it stored, or nothing when the state already was as asked. */
export type Changed = { id: bigint; part_group: bigint } | undefined;

interface Planned {
  draft: Omit<PartDraft, "sentVia" | "fromAdminId">;
  /** Given the system part the change stored, as published. */
  events?: (part: Serialized<Part>) => LogEvent[];
  /** More writes of the change, in its transaction, once its part is stored (a close's rating request). */
  after?: (tx: Queryable, emit: Emit, adminId: bigint | null) => Promise<void>;
}

interface ChangeInput {
  conversationId: bigint;
  fromAdmin?: AdminRef;
  randomId?: number;
}

/** A transaction already open by the caller, with its event log and attachment links. */
export interface InTx {
  tx: Queryable;
  emit: Emit;
  urls: AttachmentUrl;
}

/** Signed attachment links for the events of changes made through `InTx` (read before the transaction). */
export function linksFor(ctx: Ctx): Promise<AttachmentUrl> {
  return attachmentUrls(ctx.db, publicBase());
}

/**
 * The shape every operator's state change shares: lock the conversation, decide (nothing to do writes nothing),
 * store a system part made by the acting admin, rewrite the conversation's fields, log the events.
 */
async function changeIn(
  ctx: Ctx,
  { tx, emit, urls }: InTx,
  input: ChangeInput,
  plan: (tx: Queryable, conv: ConversationRow) => Promise<Planned | undefined>,
): Promise<Changed> {
  const conv = await lockOwnConversation(ctx, tx, input.conversationId, 1);
  // Resolved before deciding, so a wrong from_admin is refused even when there is nothing to change.
  const adminId = await resolveAdmin(ctx, tx, conv, input.fromAdmin);
  const planned = await plan(tx, conv);
  if (!planned) return undefined;
  const draft: PartDraft = {
    ...planned.draft,
    fromAdminId: adminId,
    sentVia: sentVia(ctx),
    randomId: input.randomId,
  };
  const { ids, conversation, parts } = await appendParts(tx, conv, [draft]);
  const id = ids[0]!;
  const pub = await publishChange(tx, emit, urls, conversation, parts, { bulkJob: ctx.bulkJob });
  const part = pub.partJson.get(id);
  if (!part) throw new Error(`the change's part ${id} was not published`);
  for (const e of planned.events?.(part) ?? []) emit(e);
  await planned.after?.(tx, emit, adminId);
  return { id, part_group: id };
}

async function change(
  ctx: Ctx,
  input: ChangeInput,
  plan: (tx: Queryable, conv: ConversationRow) => Promise<Planned | undefined>,
): Promise<Changed> {
  const urls = await linksFor(ctx);
  return withEvents(sqlOf(ctx.db), (tx, emit) => changeIn(ctx, { tx, emit, urls }, input, plan));
}

type AssignInput = ChangeInput & { admin: bigint | null };

/** `admin` null unassigns. */
export function assignConversation(ctx: Ctx, input: AssignInput): Promise<Changed> {
  return change(ctx, input, planAssign(input));
}

/** The same inside the caller's transaction (removing an operator unassigns their conversations with it). */
export function assignConversationIn(ctx: Ctx, inTx: InTx, input: AssignInput): Promise<Changed> {
  return changeIn(ctx, inTx, input, planAssign(input));
}

function planAssign(input: AssignInput) {
  return async (tx: Queryable, conv: ConversationRow): Promise<Planned | undefined> => {
    const target = input.admin === null ? null : await requireMember(tx, conv.appId, input.admin, "admin");
    if (conv.assigneeId === target) return undefined;
    return {
      draft: { type: "assigned", assigneeId: target },
      events: (part) => [
        eventOf("conversation_assigned", conv, {
          conversation: conv.id,
          assignee: part.assignee ?? null,
          part,
        }),
      ],
    };
  };
}

export function closeConversation(ctx: Ctx, input: ChangeInput): Promise<Changed> {
  return setClosed(ctx, input, true);
}

export function reopenConversation(ctx: Ctx, input: ChangeInput): Promise<Changed> {
  return setClosed(ctx, input, false);
}

function setClosed(ctx: Ctx, input: ChangeInput, closed: boolean): Promise<Changed> {
  return change(ctx, input, async (_tx, conv) => {
    if (conv.closed === closed) return undefined;
    return {
      draft: { type: closed ? "closed" : "reopened" },
      events: (part) => [eventOf("conversation_closed", conv, { conversation: conv.id, closed, part })],
      after: closed ? (tx, emit, adminId) => requestRating(tx, emit, conv, adminId) : undefined,
    };
  });
}

/** Snoozes until `until` (null cancels); the conversation wakes by itself when the time comes. */
export function delayConversation(ctx: Ctx, input: ChangeInput & { until: Date | null }): Promise<Changed> {
  const { until } = input;
  if (until && until.getTime() <= Date.now()) throw invalid({ until: "must be in the future" });
  return change(ctx, input, async (_tx, conv) => {
    const current = conv.delayedUntil && conv.delayedUntil.getTime() > Date.now() ? conv.delayedUntil : null;
    if (!until) return current ? { draft: { type: "delay_cancelled" } } : undefined;
    if (current?.getTime() === until.getTime() && !conv.closed) return undefined;
    return {
      draft: { type: "delayed", delayedUntil: until, bodyJson: { delayed_until: seconds(until) } },
      // Snoozing a closed conversation reopens it: those watching closes hear of it as of a visitor's reply.
      events: () =>
        conv.closed
          ? [eventOf("conversation_closed", conv, { conversation: conv.id, closed: false, part: null })]
          : [],
    };
  });
}

/** Adding a present tag or removing an absent one changes nothing and is not an error. */
export function tagConversation(
  ctx: Ctx,
  input: ChangeInput & { tag: string; action: "add" | "delete" },
): Promise<Changed> {
  return change(ctx, input, async (_tx, conv) => {
    const has = conv.tags.includes(input.tag);
    if (has === (input.action === "add")) return undefined;
    const tags =
      input.action === "add" ? [...conv.tags, input.tag] : conv.tags.filter((t) => t !== input.tag);
    return {
      draft: {
        type: input.action === "add" ? "tag_added" : "tag_deleted",
        tags,
        bodyJson: { tag: input.tag },
      },
      events: (part) => {
        const payload = { conversation: conv.id, tag: input.tag, part };
        return [
          input.action === "add"
            ? eventOf("conversation_tag_added", conv, payload)
            : eventOf("conversation_tag_deleted", conv, payload),
        ];
      },
    };
  });
}
