import type { QueryClient } from "@tanstack/react-query";
import type { BulkJob } from "@/lib/bulk/schemas";
import { operatorChannel } from "@/lib/contract/socket";
import { queryKeys } from "../query-keys";

/** `bulk_job.<app>.<admin>`: only the operator who started a job listens (lib/realtime/channels.ts checks). */
export const bulkJobChannel = (appId: string, adminId: string) => operatorChannel("bulk_job", appId, adminId);

export const bulkFinished = (j: BulkJob | undefined) => j?.status === "done" || j?.status === "failed";

/** Called by ../realtime-dispatch.ts: a job's progress, never older than what the cache holds. */
export function onBulkJob(msg: { message: BulkJob }, ctx: { queryClient: QueryClient }): void {
  const job = msg.message;
  const key = queryKeys.bulk.job(String(job.app), String(job.id));
  ctx.queryClient.setQueryData<BulkJob>(key, (old) =>
    old && (bulkFinished(old) || old.processed > job.processed) ? old : job,
  );
}

/** Jobs whose end this page has acted on, per query client: the socket and the job's polling both tell of it. */
const refreshed = new WeakMap<QueryClient, Set<string>>();

/**
 * A bulk job ended: every list of the app is read again (those on screen now, the others when next shown), and the
 * counters. Invalidating cancels a list read in flight, whose answer could predate the job's last changes; the
 * new read starts after the job's last commit, and the conversations' messages still on their way only confirm
 * it. The lists do not wait for those messages: a row not loaded when its message came, or a patch lost under an
 * answer, would otherwise stay.
 */
export function refreshAfterBulk(qc: QueryClient, appId: string, jobId: string): void {
  let done = refreshed.get(qc);
  if (!done) refreshed.set(qc, (done = new Set()));
  if (done.has(jobId)) return;
  done.add(jobId);
  void qc.invalidateQueries({ queryKey: queryKeys.inbox.lists(appId) });
  void qc.invalidateQueries({ queryKey: queryKeys.inbox.counts(appId) });
}

/** `conversation_bulk.<app>`: a bulk job of the app ended, whoever started it. */
export function onBulkEnd(
  msg: { message: Pick<BulkJob, "id" | "app" | "status"> },
  ctx: { queryClient: QueryClient },
): void {
  refreshAfterBulk(ctx.queryClient, String(msg.message.app), String(msg.message.id));
}
