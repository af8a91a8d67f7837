import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import type { AttachmentRow } from "../attachments/rows";

export const actorSelect = { id: true, name: true, avatar: true } as const;
export type ActorView = { id: bigint; name: string; avatar: string };

/** The columns of a part its API object needs (PART_SQL reads them). */
type PartColumns = {
  id: true;
  conversationId: true;
  appId: true;
  created: true;
  body: true;
  bodyJson: true;
  read: true;
  direction: true;
  type: true;
  sentVia: true;
  metaData: true;
  replyType: true;
  actions: true;
  edited: true;
  removed: true;
  externalId: true;
  partGroup: true;
  randomId: true;
  referrer: true;
  fromUserId: true;
  fromAdminId: true;
  assigneeId: true;
};

export type PartRow = Prisma.ConversationPartGetPayload<{ select: PartColumns }>;

/** PartColumns as raw SQL over `conversation_parts p`: the same names and types. */
export const PART_SQL = Prisma.sql`p.id, p.conversation_id AS "conversationId", p.app_id AS "appId", p.created,
  p.body, p.body_json AS "bodyJson", p.read, p.direction, p.type, p.sent_via AS "sentVia", p.meta_data AS "metaData",
  p.reply_type AS "replyType", p.actions, p.edited, p.removed, p.external_id AS "externalId",
  p.part_group AS "partGroup", p.random_id AS "randomId", p.referrer, p.from_user_id AS "fromUserId",
  p.from_admin_id AS "fromAdminId", p.assignee_id AS "assigneeId"`;

/** Everything a part's API object needs; attachment bytes stay in the database. */
export interface PartView extends PartRow {
  fromAdmin: ActorView | null;
  assignee: ActorView | null;
  attachments: AttachmentRow[];
}

/** A part just written by this transaction, before its actors are attached. */
export type CreatedPart = PartRow & { attachments: AttachmentRow[] };

/**
 * The operators named by the given IDs (null and repeats allowed), in one query, none when there are none; those in
 * `known` are not asked again.
 */
export async function loadActors(
  db: Queryable,
  ids: (bigint | null)[],
  known: Map<bigint, ActorView> = new Map(),
): Promise<Map<bigint, ActorView>> {
  const missing = [...new Set(ids.filter((x) => x !== null))].filter((id) => !known.has(id));
  const admins = missing.length
    ? await db.$queryRaw<ActorView[]>`
        SELECT id, name, avatar FROM admins WHERE id IN (${Prisma.join(missing)})`
    : [];
  return new Map([...known, ...admins.map((a) => [a.id, a] as const)]);
}

export function withActors(p: CreatedPart, admins: Map<bigint, ActorView>): PartView {
  return {
    ...p,
    fromAdmin: p.fromAdminId === null ? null : (admins.get(p.fromAdminId) ?? null),
    assignee: p.assigneeId === null ? null : (admins.get(p.assigneeId) ?? null),
  };
}

/** A part's row with its operators and one of its attachments (or none) beside it: loadParts' statement. */
type PartJoinedRow = PartRow & {
  fromAdminName: string | null;
  fromAdminAvatar: string | null;
  assigneeName: string | null;
  assigneeAvatar: string | null;
  attId: bigint | null;
  attType: string | null;
  attFilename: string | null;
  attMimeType: string | null;
  attSize: number | null;
  attCreated: Date | null;
};

const actor = (id: bigint | null, name: string | null, avatar: string | null): ActorView | null =>
  id === null || name === null ? null : { id, name, avatar: avatar ?? "" };

/**
 * Parts by ID, in the order asked (missing IDs are skipped): one statement, the parts with their operators and
 * attachments joined (a row per attachment), never nested relation loads. It was three one after another, and
 * every statement costs the request a round trip and its share of the driver's work (the bench's CPU profiles: the socket
 * writes alone were 15% of a list's CPU).
 */
export async function loadParts(db: Queryable, ids: bigint[]): Promise<PartView[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await db.$queryRaw<PartJoinedRow[]>`
    SELECT ${PART_SQL},
      fa.name AS "fromAdminName", fa.avatar AS "fromAdminAvatar",
      aa.name AS "assigneeName", aa.avatar AS "assigneeAvatar",
      a.id AS "attId", a.type AS "attType", a.filename AS "attFilename", a.mime_type AS "attMimeType",
      a.size AS "attSize", a.created AS "attCreated"
    FROM conversation_parts p
      LEFT JOIN admins fa ON fa.id = p.from_admin_id
      LEFT JOIN admins aa ON aa.id = p.assignee_id
      LEFT JOIN attachments a ON a.part_id = p.id
    WHERE p.id IN (${Prisma.join(unique)})
    ORDER BY p.id, a.id`;
  const byId = new Map<bigint, PartView>();
  for (const r of rows) {
    let part = byId.get(r.id);
    if (!part) {
      // Named one by one: an object rest over the joined row cost more than the rest of the mapping (bench profile).
      part = {
        id: r.id,
        conversationId: r.conversationId,
        appId: r.appId,
        created: r.created,
        body: r.body,
        bodyJson: r.bodyJson,
        read: r.read,
        direction: r.direction,
        type: r.type,
        sentVia: r.sentVia,
        metaData: r.metaData,
        replyType: r.replyType,
        actions: r.actions,
        edited: r.edited,
        removed: r.removed,
        externalId: r.externalId,
        partGroup: r.partGroup,
        randomId: r.randomId,
        referrer: r.referrer,
        fromUserId: r.fromUserId,
        fromAdminId: r.fromAdminId,
        assigneeId: r.assigneeId,
        fromAdmin: actor(r.fromAdminId, r.fromAdminName, r.fromAdminAvatar),
        assignee: actor(r.assigneeId, r.assigneeName, r.assigneeAvatar),
        attachments: [],
      };
      byId.set(r.id, part);
    }
    if (r.attId !== null)
      part.attachments.push({
        id: r.attId,
        partId: r.id,
        type: r.attType ?? "file",
        filename: r.attFilename ?? "",
        mimeType: r.attMimeType ?? "",
        size: r.attSize ?? 0,
        created: r.attCreated ?? new Date(0),
      });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}
