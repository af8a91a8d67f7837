import type { Ctx } from "../auth/context";
import { sqlOf, type Queryable } from "../db/sql";
import { invalid, tooBig, lookupFailed } from "../domain/errors";
import { withEvents } from "../eventlog/append";
import { attachmentUrls, publicBase } from "../attachments/sign";
import { readUpload, type Upload } from "../attachments/store";
import { appendParts, type PartDraft } from "../parts/append";
import { loadParts, type PartView } from "../parts/load";
import type { QuickReplyButton } from "../parts/schemas";
import {
  lockOwnConversation,
  requireMember,
  resolveAdmin,
  resolveUser,
  sentVia,
  type AdminRef,
  type UserRef,
} from "./actors";
import { publishChange } from "./events";
import type { LockedConversation } from "./rows";
import { botSees } from "./bot-run";
import { eventOf } from "../contract/socket";

export const MAX_BODY = 10_000;

export interface ReplyInput {
  conversationId: bigint;
  body?: string;
  bodyJson?: Record<string, unknown>;
  attachment?: File;
  attachmentFileName?: string;
  fromUser?: UserRef;
  fromAdmin?: AdminRef;
  type?: "reply_admin" | "note" | "article";
  externalId?: string;
  randomId?: number;
  autoAssign?: bigint;
  autoAssignRandomId?: number;
  referrer?: string;
  actions?: QuickReplyButton[];
  /** Set by a quick-reply click: the button's meta_data. */
  metaData?: Record<string, unknown>;
}

export interface ReplyResult {
  part: PartView;
  assignPart: PartView | undefined;
  /** false when external_id named a part that already existed. */
  created: boolean;
}

export function checkBody(body: string, field = "body"): void {
  if (body.length > MAX_BODY) {
    throw tooBig(`The message is too long: at most ${MAX_BODY} characters.`, {
      [field]: `must be at most ${MAX_BODY} characters`,
    });
  }
}

/** Everything that can be refused is refused here, before the transaction, so a rejected reply writes nothing. */
async function precheck(input: ReplyInput): Promise<Upload | undefined> {
  const body = input.body ?? "";
  checkBody(body);
  if (input.attachmentFileName !== undefined && !input.attachment) {
    throw invalid({ attachment_file_name: "needs an attachment" });
  }
  if (input.actions?.length && (input.fromUser !== undefined || input.type === "note")) {
    throw invalid({
      actions: "quick replies belong to operators' replies, not to notes or visitors' messages",
    });
  }
  const upload = input.attachment
    ? await readUpload(input.attachment, input.attachmentFileName, {
        file: "attachment",
        name: "attachment_file_name",
      })
    : undefined;
  if (body.trim() === "" && !upload && !Object.keys(input.bodyJson ?? {}).length) {
    throw invalid({ body: "is required unless an attachment is sent" });
  }
  return upload;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
  return (
    e?.code === "P2002" ||
    e?.code === "23505" ||
    e?.cause?.code === "23505" ||
    /unique constraint/i.test(String(e?.message))
  );
}

/**
 * A reply, a note or an article, or a visitor's message. With `external_id`, a repeat in the same conversation
 * returns the part stored the first time; with `auto_assign`, the assignment is stored first, then the message.
 */
export async function replyToConversation(ctx: Ctx, input: ReplyInput): Promise<ReplyResult> {
  const upload = await precheck(input);
  const urls = await attachmentUrls(ctx.db, publicBase());
  const run = () =>
    withEvents(sqlOf(ctx.db), async (tx, emit) => {
      const conv = await lockOwnConversation(
        ctx,
        tx,
        input.conversationId,
        input.autoAssign !== undefined ? 2 : 1,
      );
      if (input.externalId !== undefined) {
        const existing = await findByExternalId(tx, conv.id, input.externalId);
        if (existing) return { ...existing, created: false, part: undefined, assignPart: undefined };
      }
      const drafts: PartDraft[] = [];
      const via = sentVia(ctx);
      let message: PartDraft;
      if (input.fromUser !== undefined) {
        const userId = await resolveUser(tx, conv, input.fromUser);
        message = { type: "reply_user", fromUserId: userId, sentVia: via };
      } else {
        const adminId = await resolveAdmin(ctx, tx, conv, input.fromAdmin);
        message = { type: input.type ?? "reply_admin", fromAdminId: adminId, sentVia: via };
      }
      const assignee =
        input.autoAssign !== undefined
          ? await requireMember(tx, conv.appId, input.autoAssign, "auto_assign")
          : takesOnReply(ctx, conv, message);
      if (assignee !== undefined) {
        drafts.push({
          type: "assigned",
          sentVia: via,
          fromAdminId: message.fromAdminId ?? null,
          assigneeId: assignee,
          randomId: input.autoAssignRandomId ?? 0,
        });
      }
      drafts.push({
        ...message,
        body: input.body ?? "",
        bodyJson: input.bodyJson,
        externalId: input.externalId,
        randomId: input.randomId ?? 0,
        referrer: input.referrer,
        actions: input.actions,
        metaData: input.metaData,
        upload,
      });
      const { ids, conversation, parts } = await appendParts(tx, conv, drafts);
      const pub = await publishChange(tx, emit, urls, conversation, parts);
      if (conv.assistantType !== null) await botSees(tx, emit, ctx, urls, conversation, parts.at(-1)!);
      const assignId = assignee !== undefined ? ids[0] : undefined;
      const assignPart = assignId === undefined ? undefined : pub.partJson.get(assignId);
      if (assignPart) {
        emit(
          eventOf("conversation_assigned", conv, {
            conversation: conv.id,
            assignee: assignPart.assignee ?? null,
            part: assignPart,
          }),
        );
      }
      if (conv.closed && !conversation.closed) {
        emit(eventOf("conversation_closed", conv, { conversation: conv.id, closed: false, part: null }));
      }
      const views = new Map(pub.parts.map((p) => [p.id, p]));
      return {
        partId: ids[ids.length - 1]!,
        assignId,
        created: true,
        part: views.get(ids[ids.length - 1]!),
        assignPart: assignId === undefined ? undefined : views.get(assignId),
      };
    });
  let res: Awaited<ReturnType<typeof run>>;
  try {
    res = await run();
  } catch (err) {
    // The row lock already serialises repeats of one external_id; the unique index is the last line of defence.
    if (input.externalId === undefined || !isUniqueViolation(err)) throw err;
    res = await run();
  }
  // A new reply's parts come out of the transaction; only a repeated external_id reads the stored ones.
  if (res.part) return { part: res.part, assignPart: res.assignPart, created: true };
  const parts = await loadParts(ctx.db, [res.partId, ...(res.assignId !== undefined ? [res.assignId] : [])]);
  const byId = new Map(parts.map((p) => [p.id, p]));
  const part = byId.get(res.partId);
  if (!part) throw lookupFailed(`Part ${res.partId} does not exist any more.`);
  return {
    part,
    assignPart: res.assignId === undefined ? undefined : byId.get(res.assignId),
    created: res.created,
  };
}

/**
 * assign_on_reply: the operator who answers an unassigned conversation takes it, in the reply's part group as an
 * auto_assign would (the IDs reserved under the lock are one short: appendParts draws both, an extra statement
 * only then). Only an operator's own reply or article: not a note, a token's reply (an integration's message
 * is no one taking the conversation), a visitor's or a bot's.
 */
function takesOnReply(ctx: Ctx, conv: LockedConversation, message: PartDraft): bigint | undefined {
  if (!conv.assignOnReply || conv.assigneeId !== null || ctx.actor.kind !== "admin") return undefined;
  if (message.type !== "reply_admin" && message.type !== "article") return undefined;
  return message.fromAdminId === ctx.actor.adminId ? ctx.actor.adminId : undefined;
}

async function findByExternalId(tx: Queryable, conversationId: bigint, externalId: string) {
  const [part] = await tx.$queryRaw<{ id: bigint; assign_id: bigint | null }[]>`
    SELECT p.id, (
      SELECT a.id FROM conversation_parts a
      WHERE a.conversation_id = p.conversation_id AND a.part_group = p.part_group AND a.type = 'assigned'
        AND a.id <> p.id
      ORDER BY a.id LIMIT 1
    ) AS assign_id
    FROM conversation_parts p WHERE p.conversation_id = ${conversationId} AND p.external_id = ${externalId}`;
  return part && { partId: part.id, assignId: part.assign_id ?? undefined };
}
