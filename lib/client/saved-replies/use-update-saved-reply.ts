"use client";

import type { SavedReply } from "@/lib/saved-replies/schemas";
import { api } from "../api";
import { useOptimisticMutation } from "../optimistic";
import { queryKeys } from "../query-keys";
import type { SavedReplyInput } from "./use-create-saved-reply";
import { byShortcut, savedRepliesPath } from "./path";

/** Changes a saved reply: shown at once, rolled back if the server refuses (a taken shortcut). */
export function useUpdateSavedReply(appId: string) {
  return useOptimisticMutation({
    key: queryKeys.savedReplies.list(appId),
    mutationFn: ({ id, ...input }: Partial<SavedReplyInput> & { id: string }) =>
      api.post<SavedReply>(savedRepliesPath(appId, id), input),
    patch: (old: SavedReply[], { id, ...input }) =>
      old.map((r) => (String(r.id) === id ? { ...r, ...input } : r)).sort(byShortcut),
  });
}
