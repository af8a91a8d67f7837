import type { Tx } from "../db/client";
import type { Prisma } from "../db/generated/client";

export const actorSelect = { id: true, name: true, avatar: true } as const;
export type ActorView = { id: bigint; name: string; avatar: string };

const partColumns = {
  id: true,
  conversationId: true,
  appId: true,
  created: true,
  body: true,
  bodyJson: true,
  read: true,
  direction: true,
  type: true,
  sentVia: true,
  metaData: true,
  replyType: true,
  actions: true,
  edited: true,
  removed: true,
  externalId: true,
  partGroup: true,
  randomId: true,
  referrer: true,
  fromUserId: true,
  fromAdminId: true,
  assigneeId: true,
} as const satisfies Prisma.ConversationPartSelect;

export const attachmentColumns = {
  id: true,
  partId: true,
  type: true,
  filename: true,
  mimeType: true,
  size: true,
  created: true,
} as const satisfies Prisma.AttachmentSelect;

export type PartRow = Prisma.ConversationPartGetPayload<{ select: typeof partColumns }>;
export type AttachmentRow = Prisma.AttachmentGetPayload<{ select: typeof attachmentColumns }>;

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
  db: Tx,
  ids: (bigint | null)[],
  known: Map<bigint, ActorView> = new Map(),
): Promise<Map<bigint, ActorView>> {
  const missing = [...new Set(ids.filter((x) => x !== null))].filter((id) => !known.has(id));
  const admins = missing.length
    ? await db.admin.findMany({ where: { id: { in: missing } }, select: actorSelect })
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
 * relation loads, which Prisma would run side by side on a transaction's single connection.
 */
export async function loadParts(db: Tx, ids: bigint[]): Promise<PartView[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await db.conversationPart.findMany({ where: { id: { in: unique } }, select: partColumns });
  const adminById = await loadActors(
    db,
    rows.flatMap((r) => [r.fromAdminId, r.assigneeId]),
  );
  const attachments = await db.attachment.findMany({
    where: { partId: { in: unique } },
    select: attachmentColumns,
    orderBy: { id: "asc" },
  });
  const byId = new Map(
    rows.map((r) => [
      r.id,
      withActors({ ...r, attachments: attachments.filter((a) => a.partId === r.id) }, adminById),
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
