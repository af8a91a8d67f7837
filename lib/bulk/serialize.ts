import type { BulkAction } from "./schemas";

export interface BulkParams {
  /** An admin's ID as text, or null to unassign (action assign). */
  assignee?: string | null;
  /** Unix seconds (action snooze). */
  snoozed_until?: number;
  tag?: string;
}

export interface BulkJobRow {
  id: bigint;
  appId: bigint;
  adminId: bigint | null;
  action: string;
  params: unknown;
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  unchanged: number;
  failed: number;
  errors: unknown;
  error: string | null;
  created: Date;
  finished: Date | null;
}

/** Stored with IDs as text (JSON has no 64-bit integers); the edge writes them as the API's IDs. */
function errorsOf(stored: unknown): { conversation: bigint; error: string }[] {
  if (!Array.isArray(stored)) return [];
  return (stored as { conversation: string; error: string }[]).map((e) => ({
    conversation: BigInt(e.conversation),
    error: e.error,
  }));
}

const secondsOf = (d: Date) => Math.floor(d.getTime() / 1000);

export function serializeBulkJob(j: BulkJobRow) {
  const p = (j.params ?? {}) as BulkParams;
  return {
    id: j.id,
    app: j.appId,
    admin: j.adminId,
    action: j.action as BulkAction,
    params: {
      ...(p.assignee !== undefined ? { assignee: p.assignee === null ? null : BigInt(p.assignee) } : {}),
      ...(p.snoozed_until !== undefined ? { snoozed_until: p.snoozed_until } : {}),
      ...(p.tag !== undefined ? { tag: p.tag } : {}),
    },
    status: j.status as "pending" | "running" | "done" | "failed",
    total: j.total,
    processed: j.processed,
    succeeded: j.succeeded,
    unchanged: j.unchanged,
    failed: j.failed,
    errors: errorsOf(j.errors),
    error: j.error,
    created: secondsOf(j.created),
    finished: j.finished ? secondsOf(j.finished) : null,
  };
}
