import type { Queryable } from "../db/sql";
import type { Emit } from "../eventlog/append";
import type { AttachmentUrl } from "../attachments/sign";
import { loadActors, withActors, type ActorView, type CreatedPart, type PartView } from "../parts/load";
import { serializePart } from "../parts/serialize";
import type { ConversationRow } from "./rows";
import type { UserSystemRow } from "../user-model/system-props";
import { hydrateConversations, LIST_FIELDS, serializeConversation } from "./view";
import { notifyParts } from "../notifications/notify";

/**
 * Event-log channels of conversations (the real-time and webhook issues deliver them). Payloads are v2 API
 * objects with IDs as numbers; `type` equals the channel's kind.
 */
export type ConversationChannel =
  | "conversation"
  | "conversation_started_user"
  | "conversation_reply"
  | "conversation_read"
  | "conversation_assigned"
  | "conversation_closed"
  | "conversation_tag_added"
  | "conversation_tag_deleted"
  | "conversation_typing";

/** `of` is the conversation (or anything with its app and visitor): the visitor makes `<channel>.<user>` work. */
export function logEvent(kind: ConversationChannel, of: { appId: bigint; userId: bigint }, payload: unknown) {
  return { appId: of.appId, userId: of.userId, channel: `${kind}.${of.appId}`, type: kind, payload };
}

export interface Published {
  parts: PartView[];
  partJson: Map<bigint, Record<string, unknown>>;
  conversationJson: Record<string, unknown>;
}

/**
 * Every new part goes to `conversation_reply` (the payload is the part, `random_id` included) and the
 * conversation as it now is to `conversation`; callers add the channel of their own change. The operators the
 * parts concern (mentioned, assigned, the assignee of a visitor's reply) are notified in the same transaction.
 */
export async function publishChange(
  tx: Queryable,
  emit: Emit,
  urls: AttachmentUrl,
  conv: ConversationRow & { user?: UserSystemRow; admins?: Map<bigint, ActorView> },
  created: CreatedPart[],
): Promise<Published> {
  // The new parts are known already: one query names every operator they and the conversation mention.
  const admins = await loadActors(
    tx,
    [...created.flatMap((p) => [p.fromAdminId, p.assigneeId]), conv.assigneeId, conv.lastAdminId],
    conv.admins,
  );
  const parts = created.map((p) => withActors(p, admins));
  const partJson = new Map(parts.map((p) => [p.id, serializePart(p, { version: 2, urls })]));
  for (const p of parts) emit(logEvent("conversation_reply", conv, partJson.get(p.id)));
  const [view] = await hydrateConversations(tx, [conv], LIST_FIELDS, undefined, {
    parts,
    admins,
    users: conv.user ? [conv.user] : [],
  });
  const conversationJson = serializeConversation(view!, { version: 2, urls });
  emit(logEvent("conversation", conv, conversationJson));
  await notifyParts(tx, emit, conv, created);
  return { parts, partJson, conversationJson };
}
