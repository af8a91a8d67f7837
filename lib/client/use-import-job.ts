"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api } from "./api";
import type { ImportJob } from "./leads-types";
import { queryKeys } from "./query-keys";

const finished = (j: ImportJob | undefined) => j?.status === "done" || j?.status === "failed";

/** Follows an import job every half second until it is done or failed; then the leads are re-read. */
export function useImportJob(jobId: string | null) {
  const queryClient = useQueryClient();
  const q = useQuery({
    queryKey: queryKeys.leads.importJob(jobId ?? ""),
    queryFn: ({ signal }) => api.get<ImportJob>(`/api/users/import/${jobId}`, { signal }),
    enabled: !!jobId,
    refetchInterval: (query) => (finished(query.state.data) ? false : 500),
  });
  const done = finished(q.data);
  useEffect(() => {
    if (done) void queryClient.invalidateQueries({ queryKey: queryKeys.leads.all });
  }, [done, queryClient]);
  return q;
}
