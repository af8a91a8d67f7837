"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import type { FilterGroup } from "@/lib/leads/filter-grammar";
import { appPath, type Segment } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Saves a filter as a segment; it joins the list as soon as the server has it. */
export function useCreateSegment(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.leads.segments(appId);
  return useMutation({
    mutationFn: (input: { name: string; filters: FilterGroup }) =>
      api.post<Segment>(`${appPath(appId)}/segments`, {
        name: input.name,
        filters: JSON.stringify(input.filters),
      }),
    onSuccess: (seg) => queryClient.setQueryData<Segment[]>(key, (old) => (old ? [...old, seg] : [seg])),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
