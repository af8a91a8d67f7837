import type { NotificationKind } from "./schemas";

export interface NotificationRow {
  id: bigint;
  appId: bigint;
  kind: string;
  conversationId: bigint;
  partId: bigint | null;
  actorId: bigint | null;
  actorName: string | null;
  excerpt: string;
  created: Date;
  readAt: Date | null;
  count: number;
  bulkJobId: bigint | null;
}

const secondsOf = (d: Date) => Math.floor(d.getTime() / 1000);

export function serializeNotification(n: NotificationRow) {
  return {
    id: n.id,
    app: n.appId,
    kind: n.kind as NotificationKind,
    conversation: n.conversationId,
    part: n.partId,
    actor: n.actorId !== null ? { id: n.actorId, name: n.actorName ?? "" } : null,
    excerpt: n.excerpt,
    count: n.count,
    bulk_job: n.bulkJobId,
    created: secondsOf(n.created),
    read_at: n.readAt ? secondsOf(n.readAt) : null,
  };
}
