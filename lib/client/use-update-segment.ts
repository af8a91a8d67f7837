"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import type { FilterGroup } from "@/lib/leads/filter-grammar";
import { appPath, type Segment } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Renames a segment or replaces its filters; the list shows the change at once and rolls back on error. */
export function useUpdateSegment(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.leads.segments(appId);
  return useMutation({
    mutationFn: (input: { id: string; name?: string; filters?: FilterGroup }) =>
      api.put<Segment>(`${appPath(appId)}/segments/${input.id}`, {
        name: input.name,
        filters: input.filters ? JSON.stringify(input.filters) : undefined,
      }),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Segment[]>(key);
      queryClient.setQueryData<Segment[]>(key, (old) =>
        old?.map((s) =>
          String(s.id) === input.id
            ? {
                ...s,
                ...(input.name ? { name: input.name } : {}),
                ...(input.filters ? { filters: input.filters } : {}),
              }
            : s,
        ),
      );
      return { previous };
    },
    onError: (_e, _i, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
