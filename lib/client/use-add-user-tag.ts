"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { usersPath, type UserCard } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Tags the user: shown at once, removed again on error. */
export function useAddUserTag(userId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.users.detail(userId);
  return useMutation({
    mutationFn: (tag: string) => api.post<{ tags: string[] }>(`${usersPath(userId)}/tags`, { tag }),
    onMutate: async (tag) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<UserCard>(key);
      queryClient.setQueryData<UserCard>(key, (old) =>
        old && !old.tags.includes(tag) ? { ...old, tags: [...old.tags, tag].sort() } : old,
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
