"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { BulkJob } from "@/lib/bulk/schemas";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import { useSocket } from "../use-socket";
import { bulkFinished, bulkJobChannel, refreshAfterBulk } from "./bulk-realtime";
import { bulkPath } from "./paths";

/**
 * A bulk job's progress: pushed on the operator's `bulk_job` channel as it runs, and read every 2 s as well in
 * case the socket is down. When it ends, the lists and counts are read again (refreshAfterBulk; every other panel
 * of the app does so on `conversation_bulk`).
 */
export function useBulkJob(appId: string, meId: string, jobId: string | null) {
  const queryClient = useQueryClient();
  const { subscribe } = useSocket();
  useEffect(() => subscribe([bulkJobChannel(appId, meId)]), [subscribe, appId, meId]);
  const q = useQuery({
    queryKey: queryKeys.bulk.job(appId, jobId ?? ""),
    queryFn: ({ signal }) => api.get<BulkJob>(`${bulkPath(appId)}/${jobId}`, { signal }),
    enabled: !!jobId,
    refetchInterval: (query) => (bulkFinished(query.state.data) ? false : 2000),
  });
  const done = bulkFinished(q.data);
  useEffect(() => {
    if (done && jobId) refreshAfterBulk(queryClient, appId, jobId);
  }, [done, queryClient, appId, jobId]);
  return q;
}
