import type { QueryClient } from "@tanstack/react-query";
import type { BulkJob } from "@/lib/bulk/schemas";
import { queryKeys } from "../query-keys";

/** `bulk_job.<app>.<admin>`: only the operator who started a job listens (lib/realtime/channels.ts checks). */
export const bulkJobChannel = (appId: string, adminId: string) => `bulk_job.${appId}.${adminId}`;

export const bulkFinished = (j: BulkJob | undefined) => j?.status === "done" || j?.status === "failed";

/** Registered in ../realtime-dispatch.ts: a job's progress, never older than what the cache holds. */
export function onBulkJob(msg: { message: unknown }, ctx: { queryClient: QueryClient }): void {
  const job = msg.message as BulkJob;
  const key = queryKeys.bulk.job(String(job.app), String(job.id));
  ctx.queryClient.setQueryData<BulkJob>(key, (old) =>
    old && (bulkFinished(old) || old.processed > job.processed) ? old : job,
  );
}
