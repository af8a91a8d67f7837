"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SavedReply } from "@/lib/saved-replies/schemas";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import { byShortcut, savedRepliesPath } from "./path";

export interface SavedReplyInput {
  shortcut: string;
  title: string;
  body: string;
}

/** Creates a saved reply; it joins the list once the server has checked its shortcut (unique per app). */
export function useCreateSavedReply(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.savedReplies.list(appId);
  return useMutation({
    mutationFn: (input: SavedReplyInput) => api.post<SavedReply>(savedRepliesPath(appId), input),
    onSuccess: (r) =>
      queryClient.setQueryData<SavedReply[]>(key, (old) => [...(old ?? []), r].sort(byShortcut)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
