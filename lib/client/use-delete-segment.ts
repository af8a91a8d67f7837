"use client";

import { api } from "./api";
import { appPath, type Segment } from "./leads-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

/** Deletes a segment: gone from the list at once, back if the server refuses (another segment uses it). */
export function useDeleteSegment(appId: string) {
  return useOptimisticMutation({
    key: queryKeys.leads.segments(appId),
    mutationFn: (id: string) => api.delete<unknown>(`${appPath(appId)}/segments/${id}`),
    patch: (old: Segment[], id) => old.filter((s) => String(s.id) !== id),
  });
}
