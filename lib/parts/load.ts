import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import { ATTACHMENT_SQL, type AttachmentRow } from "../attachments/rows";

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

/**
 * Parts by ID, in the order asked (missing IDs are skipped): three flat queries one after another, never nested
 * relation loads.
 */
export async function loadParts(db: Queryable, ids: bigint[]): Promise<PartView[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const list = Prisma.join(unique);
  const rows = await db.$queryRaw<PartRow[]>`
    SELECT ${PART_SQL} FROM conversation_parts p WHERE p.id IN (${list})`;
  const adminById = await loadActors(
    db,
    rows.flatMap((r) => [r.fromAdminId, r.assigneeId]),
  );
  const attachments = await db.$queryRaw<AttachmentRow[]>`
    SELECT ${ATTACHMENT_SQL} FROM attachments a WHERE a.part_id IN (${list}) ORDER BY a.id`;
  const byId = new Map(
    rows.map((r) => [
      r.id,
      withActors({ ...r, attachments: attachments.filter((a) => a.partId === r.id) }, adminById),
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
