"use client";

import { api } from "./api";
import { usersPath, type UserCard } from "./leads-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

/** Removes a tag: gone at once, back on error. */
export function useRemoveUserTag(userId: string) {
  return useOptimisticMutation({
    key: queryKeys.users.detail(userId),
    mutationFn: (tag: string) =>
      api.delete<{ tags: string[] }>(`${usersPath(userId)}/tags`, { query: { tag } }),
    patch: (old: UserCard, tag) => ({ ...old, tags: old.tags.filter((t) => t !== tag) }),
    alsoStale: [queryKeys.leads.all],
    refetchInBackground: true,
  });
}
