"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { appPath, type Segment } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Deletes a segment: gone from the list at once, back if the server refuses (another segment uses it). */
export function useDeleteSegment(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.leads.segments(appId);
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(`${appPath(appId)}/segments/${id}`),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Segment[]>(key);
      queryClient.setQueryData<Segment[]>(key, (old) => old?.filter((s) => String(s.id) !== id));
      return { previous };
    },
    onError: (_e, _i, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
