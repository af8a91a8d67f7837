"use client";

import type { SavedReply } from "@/lib/saved-replies/schemas";
import { api } from "../api";
import { useOptimisticMutation } from "../optimistic";
import { queryKeys } from "../query-keys";
import { savedRepliesPath } from "./path";

/** Deletes a saved reply: gone from the list at once, back if the server refuses. */
export function useDeleteSavedReply(appId: string) {
  return useOptimisticMutation({
    key: queryKeys.savedReplies.list(appId),
    mutationFn: (id: string) => api.delete<unknown>(savedRepliesPath(appId, id)),
    patch: (old: SavedReply[], id) => old.filter((r) => String(r.id) !== id),
  });
}
