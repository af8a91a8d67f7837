"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { usersPath, type UserCard } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Deletes a note: gone at once, back on error. */
export function useDeleteUserNote(userId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.users.detail(userId);
  return useMutation({
    mutationFn: (noteId: string) => api.delete<unknown>(`${usersPath(userId)}/notes/${noteId}`),
    onMutate: async (noteId) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<UserCard>(key);
      queryClient.setQueryData<UserCard>(key, (old) =>
        old ? { ...old, notes: old.notes.filter((n) => String(n.id) !== noteId) } : old,
      );
      return { previous };
    },
    onError: (_e, _b, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
