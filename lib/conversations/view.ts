import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import type { AttachmentUrl } from "../attachments/sign";
import type { ChannelRow } from "../channels/list-channels";
import { serializeChannel } from "../channels/list-channels";
import { loadActors, loadParts, type ActorView, type PartView } from "../parts/load";
import { seconds, serializeActor, serializePart } from "../parts/serialize";
import { serializeUserShort, USER_SYSTEM_SQL, type UserSystemRow } from "../user-model/system-props";
import type { ConversationRow } from "./rows";
import type { z } from "zod";
import type { Serialized } from "../contract/schemas";
import type { Conversation, conversationV1Schema } from "./schemas";

export const CONVERSATION_FIELDS = [
  "user",
  "channel",
  "part_last",
  "important_part_last",
  "reply_last",
] as const;
export type ConversationField = (typeof CONVERSATION_FIELDS)[number];
export type ConversationFields = Record<ConversationField, boolean>;

/** The spec's defaults: an app's list leaves out the channel; a single conversation has everything. */
export const LIST_FIELDS: ConversationFields = {
  user: true,
  channel: false,
  part_last: true,
  important_part_last: true,
  reply_last: true,
};
export const SINGLE_FIELDS: ConversationFields = { ...LIST_FIELDS, channel: true };

/** Switches given in a request over the endpoint's defaults. */
export function pickFields(
  defaults: ConversationFields,
  given: Partial<Record<ConversationField, boolean | undefined>>,
): ConversationFields {
  const out = { ...defaults };
  for (const f of CONVERSATION_FIELDS) if (given[f] !== undefined) out[f] = given[f];
  return out;
}

export interface ConversationView {
  row: ConversationRow;
  fields: ConversationFields;
  user: UserSystemRow | undefined;
  channel: ChannelRow | undefined;
  parts: Map<bigint, PartView>;
  admins: Map<bigint, ActorView>;
}

/**
 * Loads what the requested fields need for a whole page at once: users, admins and parts in one query each (no
 * query per conversation). `channels` is asked only when the channel object is wanted.
 */
export async function hydrateConversations(
  db: Queryable,
  rows: ConversationRow[],
  fields: ConversationFields,
  channels?: () => Promise<ChannelRow[]>,
  /** What the caller has loaded already (a write's new parts and their operators): not asked again. */
  known: { parts?: PartView[]; admins?: Map<bigint, ActorView>; users?: UserSystemRow[] } = {},
): Promise<ConversationView[]> {
  if (!rows.length) return [];
  const knownParts = new Map((known.parts ?? []).map((p) => [p.id, p]));
  const knownAdmins = known.admins ?? new Map<bigint, ActorView>();
  const knownUsers = new Map((known.users ?? []).map((u) => [u.id, u]));
  const partIds = rows.flatMap((r) => [
    ...(fields.part_last && r.partLastId ? [r.partLastId] : []),
    ...(fields.important_part_last && r.importantPartLastId ? [r.importantPartLastId] : []),
    ...(fields.reply_last && r.replyLastId ? [r.replyLastId] : []),
  ]);
  const userIds = [...new Set(rows.map((r) => r.userId))].filter((id) => !knownUsers.has(id));
  const findUsers = () =>
    fields.user && userIds.length
      ? db.$queryRaw<UserSystemRow[]>`
          SELECT ${USER_SYSTEM_SQL} FROM users u WHERE u.id IN (${Prisma.join(userIds)})`
      : Promise.resolve([]);
  const findAdmins = () =>
    loadActors(
      db,
      rows.flatMap((r) => [r.assigneeId, r.lastAdminId]),
      knownAdmins,
    );
  const findParts = () =>
    loadParts(
      db,
      partIds.filter((id) => !knownParts.has(id)),
    );
  const findChannels = () =>
    fields.channel && channels && rows.some((r) => r.channelId !== null) ? channels() : Promise.resolve([]);
  // On the pool (a SqlDb, which can open transactions) the lookups go out together, each on a connection of its
  // own: the page waits for one round trip, not four. Inside a transaction they share its one connection, which
  // runs one statement at a time anyway, so they go one after another.
  const [users, adminById, parts, chans] =
    "transaction" in db
      ? await Promise.all([findUsers(), findAdmins(), findParts(), findChannels()])
      : [await findUsers(), await findAdmins(), await findParts(), await findChannels()];
  const userById = new Map<bigint, UserSystemRow>([...knownUsers, ...users.map((u) => [u.id, u] as const)]);
  const channelById = new Map(chans.map((c) => [c.id, c]));
  const partById = new Map([...knownParts, ...parts.map((p) => [p.id, p] as const)]);
  return rows.map((row) => ({
    row,
    fields,
    user: userById.get(row.userId),
    channel: row.channelId === null ? undefined : channelById.get(row.channelId),
    parts: partById,
    admins: adminById,
  }));
}

export interface ConversationOpts {
  version: number;
  urls: AttachmentUrl;
}

type ConversationV1 = z.infer<typeof conversationV1Schema>;

/**
 * How the conversation began: the object start.ts stores (`{type: "manual", sent_via}`), the proactive message's ID
 * (startFromMessage), or null.
 */
const begun = (m: unknown): ConversationV1["message"] =>
  typeof m === "number" ? m : m !== null && typeof m === "object" && !Array.isArray(m) ? { ...m } : null;

/** v2 adds `delayed_until` and keeps the microseconds of `last_update`. */
export function serializeConversation(
  v: ConversationView,
  o: ConversationOpts & { version: 2 },
): Serialized<Conversation>;
export function serializeConversation(
  v: ConversationView,
  o: ConversationOpts,
): Serialized<ConversationV1> | Serialized<Conversation>;
export function serializeConversation(
  v: ConversationView,
  o: ConversationOpts,
): Serialized<ConversationV1> | Serialized<Conversation> {
  const r = v.row;
  const part = (id: bigint | null) => {
    const p = id === null ? undefined : v.parts.get(id);
    return p ? serializePart(p, o) : null;
  };
  const admin = (id: bigint | null) => serializeActor(id === null ? null : (v.admins.get(id) ?? null));
  // Keys in the order the API has always written them; the switched-off ones left out (assigned one by one: spreads
  // of conditional objects cost several times as much, as in serializePart).
  const out = { id: r.id, created: seconds(r.created) } as Serialized<Conversation>;
  if (v.fields.user) out.user = v.user ? serializeUserShort(v.user) : null;
  if (v.fields.channel) out.channel = v.channel ? serializeChannel(v.channel) : null;
  out.read = r.read;
  out.replied = r.replied;
  out.clicked = r.clicked;
  out.unsubscribed = r.unsubscribed;
  out.closed = r.closed;
  out.message = begun(r.message);
  out.type = r.type;
  out.reply_type = r.replyType;
  if (v.fields.part_last) out.part_last = part(r.partLastId);
  if (v.fields.important_part_last) out.important_part_last = part(r.importantPartLastId);
  if (v.fields.reply_last) out.reply_last = part(r.replyLastId);
  out.parts_count = r.partsCount;
  out.assignee = admin(r.assigneeId);
  out.unread_parts_count = r.unreadPartsCount;
  out.last_admin = admin(r.lastAdminId);
  // v2 keeps microseconds (it is half of the list position); v1 clients get whole seconds as they always did.
  out.last_update = o.version >= 2 ? Number(r.lastUpdateUs) / 1e6 : Number(r.lastUpdateUs / 1_000_000n);
  out.tags = r.tags;
  out.assistant_type = r.assistantType;
  if (o.version >= 2) out.delayed_until = r.delayedUntil ? seconds(r.delayedUntil) : null;
  return out;
}
