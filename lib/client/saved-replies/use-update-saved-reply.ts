"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SavedReply } from "@/lib/saved-replies/schemas";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import type { SavedReplyInput } from "./use-create-saved-reply";
import { byShortcut, savedRepliesPath } from "./path";

/** Changes a saved reply: shown at once, rolled back if the server refuses (a taken shortcut). */
export function useUpdateSavedReply(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.savedReplies.list(appId);
  return useMutation({
    mutationFn: ({ id, ...input }: Partial<SavedReplyInput> & { id: string }) =>
      api.post<SavedReply>(savedRepliesPath(appId, id), input),
    onMutate: async ({ id, ...input }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<SavedReply[]>(key);
      queryClient.setQueryData<SavedReply[]>(key, (old) =>
        old?.map((r) => (String(r.id) === id ? { ...r, ...input } : r)).sort(byShortcut),
      );
      return { previous };
    },
    onError: (_e, _i, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
