import type { Queryable } from "../db/sql";
import type { Emit } from "../eventlog/append";
import type { AttachmentUrl } from "../attachments/sign";
import { loadActors, withActors, type ActorView, type CreatedPart, type PartView } from "../parts/load";
import { serializePart } from "../parts/serialize";
import type { ConversationRow } from "./rows";
import type { UserSystemRow } from "../user-model/system-props";
import { hydrateConversations, LIST_FIELDS, serializeConversation } from "./view";
import { notifyParts } from "../notifications/notify";
import { scheduleEmails } from "./email-followups";
import { eventOf } from "../contract/socket";
import type { Serialized } from "../contract/schemas";
import type { Part } from "../parts/schemas";
import type { Conversation } from "./schemas";

export interface Published {
  parts: PartView[];
  partJson: Map<bigint, Serialized<Part>>;
  conversationJson: Serialized<Conversation>;
}

/**
 * Every new part goes to `conversation_reply` (the payload is the part, `random_id` included) and the
 * conversation as it now is to `conversation`; callers add the channel of their own change. The operators the
 * parts concern (mentioned, assigned, the assignee of a visitor's reply) are notified, and the emails they may
 * cause queued, in the same transaction.
 */
export async function publishChange(
  tx: Queryable,
  emit: Emit,
  urls: AttachmentUrl,
  conv: ConversationRow & { user?: UserSystemRow; admins?: Map<bigint, ActorView> },
  created: CreatedPart[],
  opts: { bulkJob?: bigint } = {},
): Promise<Published> {
  // The new parts are known already: one query names every operator they and the conversation mention.
  const admins = await loadActors(
    tx,
    [...created.flatMap((p) => [p.fromAdminId, p.assigneeId]), conv.assigneeId, conv.lastAdminId],
    conv.admins,
  );
  const parts = created.map((p) => withActors(p, admins));
  const partJson = new Map(parts.map((p) => [p.id, serializePart(p, { version: 2, urls })]));
  for (const json of partJson.values()) emit(eventOf("conversation_reply", conv, json));
  const [view] = await hydrateConversations(tx, [conv], LIST_FIELDS, undefined, {
    parts,
    admins,
    users: conv.user ? [conv.user] : [],
  });
  const conversationJson = serializeConversation(view!, { version: 2, urls });
  emit(eventOf("conversation", conv, conversationJson));
  await notifyParts(tx, emit, conv, created, opts);
  await scheduleEmails(tx, conv, created);
  return { parts, partJson, conversationJson };
}
