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

const attachmentColumns = {
  id: true,
  partId: true,
  type: true,
  filename: true,
  mimeType: true,
  size: true,
  created: true,
} as const satisfies Prisma.AttachmentSelect;

type PartRow = Prisma.ConversationPartGetPayload<{ select: typeof partColumns }>;
type AttachmentRow = Prisma.AttachmentGetPayload<{ select: typeof attachmentColumns }>;

/** Everything a part's API object needs; attachment bytes stay in the database. */
export interface PartView extends PartRow {
  fromAdmin: ActorView | null;
  assignee: ActorView | null;
  attachments: AttachmentRow[];
}

/**
 * Parts by ID, in the order asked (missing IDs are skipped): three flat queries one after another, never nested
 * relation loads, which Prisma would run side by side on a transaction's single connection.
 */
export async function loadParts(db: Tx, ids: bigint[]): Promise<PartView[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await db.conversationPart.findMany({ where: { id: { in: unique } }, select: partColumns });
  const adminIds = [...new Set(rows.flatMap((r) => [r.fromAdminId, r.assigneeId]).filter((x) => x !== null))];
  const admins = adminIds.length
    ? await db.admin.findMany({ where: { id: { in: adminIds } }, select: actorSelect })
    : [];
  const attachments = await db.attachment.findMany({
    where: { partId: { in: unique } },
    select: attachmentColumns,
    orderBy: { id: "asc" },
  });
  const adminById = new Map(admins.map((a) => [a.id, a]));
  const byId = new Map(
    rows.map((r) => [
      r.id,
      {
        ...r,
        fromAdmin: r.fromAdminId === null ? null : (adminById.get(r.fromAdminId) ?? null),
        assignee: r.assigneeId === null ? null : (adminById.get(r.assigneeId) ?? null),
        attachments: attachments.filter((a) => a.partId === r.id),
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
