"use client";

import { useQuery } from "@tanstack/react-query";
import type { SavedReply } from "@/lib/saved-replies/schemas";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import { savedRepliesPath } from "./path";

/** The app's saved replies, by shortcut: Settings manages them, the composer's `/` list reads the same cache. */
export function useSavedReplies(appId: string, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.savedReplies.list(appId),
    queryFn: ({ signal }) => api.get<SavedReply[]>(savedRepliesPath(appId), { signal }),
    staleTime: 60_000,
    enabled: opts.enabled ?? true,
  });
}
