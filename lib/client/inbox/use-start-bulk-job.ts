"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkAction, BulkJob } from "@/lib/bulk/schemas";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import type { ListParams } from "./filters";
import { bulkPath } from "./paths";

export interface BulkInput {
  action: BulkAction;
  assignee?: string | null;
  /** Seconds from now (snooze). */
  duration?: number;
  tag?: string;
  /** Listed conversations, or every one the list's filter matches when the job starts. */
  selection: { ids: string[] } | { filter: ListParams };
}

/** Starts a bulk job; its progress is then followed by useBulkJob. */
export function useStartBulkJob(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkInput) =>
      api.post<BulkJob>(bulkPath(appId), {
        action: input.action,
        ...(input.assignee !== undefined ? { assignee: input.assignee ?? 0 } : {}),
        ...(input.duration !== undefined ? { duration: input.duration } : {}),
        ...(input.tag !== undefined ? { tag: input.tag } : {}),
        selection: input.selection,
      }),
    onSuccess: (job) => queryClient.setQueryData(queryKeys.bulk.job(appId, String(job.id)), job),
  });
}
