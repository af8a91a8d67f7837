"use client";

import { api } from "./api";
import type { FilterGroup } from "@/lib/leads/filter-grammar";
import { appPath, type Segment } from "./leads-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

/** Renames a segment or replaces its filters; the list shows the change at once and rolls back on error. */
export function useUpdateSegment(appId: string) {
  return useOptimisticMutation({
    key: queryKeys.leads.segments(appId),
    mutationFn: (input: { id: string; name?: string; filters?: FilterGroup }) =>
      api.put<Segment>(`${appPath(appId)}/segments/${input.id}`, {
        name: input.name,
        filters: input.filters ? JSON.stringify(input.filters) : undefined,
      }),
    patch: (old: Segment[], input) =>
      old.map((s) =>
        String(s.id) === input.id
          ? {
              ...s,
              ...(input.name ? { name: input.name } : {}),
              ...(input.filters ? { filters: input.filters } : {}),
            }
          : s,
      ),
  });
}
