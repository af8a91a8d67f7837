"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { usersPath, type UserCard } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Removes a tag: gone at once, back on error. */
export function useRemoveUserTag(userId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.users.detail(userId);
  return useMutation({
    mutationFn: (tag: string) =>
      api.delete<{ tags: string[] }>(`${usersPath(userId)}/tags`, { query: { tag } }),
    onMutate: async (tag) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<UserCard>(key);
      queryClient.setQueryData<UserCard>(key, (old) =>
        old ? { ...old, tags: old.tags.filter((t) => t !== tag) } : old,
      );
      return { previous };
    },
    onError: (_e, _t, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: queryKeys.leads.all });
    },
  });
}
