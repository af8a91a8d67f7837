import type { Queryable } from "../db/sql";
import type { Upload } from "../attachments/store";
import { storeAttachment } from "../attachments/store";
import type { CreatedPart } from "./load";
import type { UserSystemRow } from "../user-model/system-props";
import { applyPart, directionOf, initiallyRead, type ConversationState, type PartType } from "./state";

export interface PartDraft {
  type: PartType;
  sentVia: string;
  body?: string;
  bodyJson?: object;
  fromAdminId?: bigint | null;
  fromUserId?: bigint | null;
  assigneeId?: bigint | null;
  delayedUntil?: Date;
  tags?: string[];
  externalId?: string;
  randomId?: number;
  referrer?: string;
  actions?: object[];
  metaData?: object;
  upload?: Upload;
}

/**
 * Appends parts to a conversation locked by this transaction (see lockConversation) and rewrites every field that
 * follows from them in the same transaction. Parts of one call form one group (`part_group` = the first part's
 * ID): the assignment made by a reply's auto_assign and the reply itself.
 */
export async function appendParts<
  // The columns of a conversation row (lib/conversations/rows.ts) that appending reads and rewrites.
  C extends ConversationState & {
    id: bigint;
    appId: bigint;
    userId: bigint;
    lastUpdateUs: bigint;
    partIds?: bigint[];
    user?: UserSystemRow;
  },
>(
  tx: Queryable,
  conv: C,
  drafts: PartDraft[],
): Promise<{
  ids: bigint[];
  /** What the conversation now is, with whatever else the caller's row carried (its visitor updated). */
  conversation: C;
  parts: CreatedPart[];
}> {
  // IDs are taken under the lock (reserved by lockConversation, or drawn here), so within a conversation ID
  // order is the order of commits.
  const reserved = conv.partIds ?? [];
  const drawn =
    reserved.length >= drafts.length
      ? reserved.slice(0, drafts.length)
      : (
          await tx.$queryRaw<{ id: bigint }[]>`
            SELECT nextval(pg_get_serial_sequence('conversation_parts', 'id'))::bigint AS id
            FROM generate_series(1, ${drafts.length}::int)`
        ).map((r) => BigInt(r.id));
  const ids = drawn.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let state: C = conv;
  drafts.forEach((d, i) => {
    state = { ...state, ...applyPart(state, { ...d, id: ids[i]!, fromAdminId: d.fromAdminId ?? null }) };
  });
  const s = state;
  const rows = drafts.map((d, i) => ({
    id: ids[i]!,
    conversationId: conv.id,
    appId: conv.appId,
    body: d.body ?? "",
    bodyJson: d.bodyJson ?? {},
    read: initiallyRead(d.type),
    direction: directionOf(d.type),
    type: d.type,
    sentVia: d.sentVia,
    metaData: d.metaData ?? {},
    replyType: "no",
    actions: d.actions && d.actions.length ? d.actions : null,
    edited: null,
    removed: null,
    externalId: d.externalId ?? null,
    partGroup: ids[0]!,
    randomId: BigInt(d.randomId ?? 0),
    referrer: d.referrer ?? null,
    fromAdminId: d.fromAdminId ?? null,
    fromUserId: d.fromUserId ?? null,
    assigneeId: d.type === "assigned" ? (d.assigneeId ?? null) : null,
  }));
  const replied = drafts.some((d) => d.type === "reply_user");
  const contacted = drafts.some((d) => d.type === "reply_admin" || d.type === "article");
  // One statement for the conversation's fields, the parts and the visitor's `$last_reply` / `$last_contacted`:
  // the reply path is the hottest write, and each statement costs a round trip and a driver call.
  // clock_timestamp, not now(): a writer that waited for the lock must not go back in time; +1µs keeps
  // last_update strictly increasing even within one clock tick.
  const updated = await tx.$queryRaw<{ last_update: Date; last_update_us: bigint }[]>`
    WITH conv AS (
      UPDATE conversations SET
        parts_count = ${s.partsCount}, unread_parts_count = ${s.unreadPartsCount}, read = ${s.read},
        replied = ${s.replied}, answered = ${s.answered}, has_user_replies = ${s.hasUserReplies},
        last_admin_id = ${s.lastAdminId}, assignee_id = ${s.assigneeId}, closed = ${s.closed},
        delayed_until = ${s.delayedUntil}, tags = ${s.tags}::text[], part_last_id = ${s.partLastId},
        important_part_last_id = ${s.importantPartLastId}, reply_last_id = ${s.replyLastId},
        last_update = GREATEST(clock_timestamp(), last_update + INTERVAL '1 microsecond')
      WHERE id = ${conv.id}
      RETURNING last_update
    ), parts AS (
      INSERT INTO conversation_parts (id, conversation_id, app_id, created, body, body_json, read, direction,
        type, sent_via, meta_data, actions, external_id, part_group, random_id, referrer, from_admin_id,
        from_user_id, assignee_id)
      SELECT p.id, ${conv.id}, ${conv.appId}, conv.last_update, p.body, p.body_json, p.read, p.direction,
        p.type, p.sent_via, p.meta_data, p.actions, p.external_id, ${ids[0]!}, p.random_id, p.referrer,
        p.from_admin_id, p.from_user_id, p.assignee_id
      FROM conv, jsonb_to_recordset(${partsJson(rows)}::jsonb) AS p(id bigint, body text, body_json jsonb,
        read boolean, direction text, type text, sent_via text, meta_data jsonb, actions jsonb,
        external_id text, random_id bigint, referrer text, from_admin_id bigint, from_user_id bigint,
        assignee_id bigint)
      RETURNING id
    ), touched AS (
      UPDATE users SET updated = now(),
        last_reply = CASE WHEN ${replied} THEN conv.last_update ELSE users.last_reply END,
        last_contacted = CASE WHEN ${contacted} THEN conv.last_update ELSE users.last_contacted END
      FROM conv WHERE users.id = ${conv.userId} AND (${replied} OR ${contacted})
      RETURNING users.id
    )
    SELECT conv.last_update, (EXTRACT(EPOCH FROM conv.last_update) * 1000000)::bigint AS last_update_us
    FROM conv`;
  const at = updated[0];
  if (!at) throw new Error(`conversation ${conv.id} vanished under its lock`);
  const parts: CreatedPart[] = [];
  for (const [i, row] of rows.entries()) {
    const upload = drafts[i]!.upload;
    const attachments = upload
      ? [await storeAttachment(tx, { appId: conv.appId, partId: row.id, upload })]
      : [];
    parts.push({ ...row, created: at.last_update, attachments });
  }
  if (conv.unreadPartsCount > 0 && s.unreadPartsCount === 0) await markUserPartsRead(tx, conv.id);
  // The visitor as this statement left them, for the event payloads (no read back).
  const user = conv.user && {
    ...conv.user,
    ...(replied ? { lastReply: at.last_update } : {}),
    ...(contacted ? { lastContacted: at.last_update } : {}),
  };
  return { ids, conversation: { ...s, lastUpdateUs: BigInt(at.last_update_us), user }, parts };
}

/** The rows for jsonb_to_recordset: IDs as strings (JSON has no 64-bit integers). */
function partsJson(rows: Omit<CreatedPart, "created" | "attachments">[]): string {
  return JSON.stringify(
    rows.map((r) => ({
      id: String(r.id),
      body: r.body,
      body_json: r.bodyJson,
      read: r.read,
      direction: r.direction,
      type: r.type,
      sent_via: r.sentVia,
      meta_data: r.metaData,
      actions: r.actions,
      external_id: r.externalId,
      random_id: String(r.randomId),
      referrer: r.referrer,
      from_admin_id: r.fromAdminId === null ? null : String(r.fromAdminId),
      from_user_id: r.fromUserId === null ? null : String(r.fromUserId),
      assignee_id: r.assigneeId === null ? null : String(r.assigneeId),
    })),
  );
}

export async function markUserPartsRead(tx: Queryable, conversationId: bigint): Promise<void> {
  await tx.$executeRaw`
    UPDATE conversation_parts SET read = true
    WHERE conversation_id = ${conversationId} AND direction = 'u2a' AND read = false`;
}
