"use client";

import { api } from "./api";
import { usersPath, type UserCard } from "./leads-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

/** Tags the user: shown at once, removed again on error. */
export function useAddUserTag(userId: string) {
  return useOptimisticMutation({
    key: queryKeys.users.detail(userId),
    mutationFn: (tag: string) => api.post<{ tags: string[] }>(`${usersPath(userId)}/tags`, { tag }),
    patch: (old: UserCard, tag) =>
      old.tags.includes(tag) ? old : { ...old, tags: [...old.tags, tag].sort() },
    alsoStale: [queryKeys.leads.all],
    refetchInBackground: true,
  });
}
