"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SavedReply } from "@/lib/saved-replies/schemas";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import { savedRepliesPath } from "./path";

/** Deletes a saved reply: gone from the list at once, back if the server refuses. */
export function useDeleteSavedReply(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.savedReplies.list(appId);
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(savedRepliesPath(appId, id)),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<SavedReply[]>(key);
      queryClient.setQueryData<SavedReply[]>(key, (old) => old?.filter((r) => String(r.id) !== id));
      return { previous };
    },
    onError: (_e, _i, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
