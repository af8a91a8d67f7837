"use client";

import { api } from "./api";
import { usersPath, type UserCard } from "./leads-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

/** Deletes a note: gone at once, back on error. */
export function useDeleteUserNote(userId: string) {
  return useOptimisticMutation({
    key: queryKeys.users.detail(userId),
    mutationFn: (noteId: string) => api.delete<unknown>(`${usersPath(userId)}/notes/${noteId}`),
    patch: (old: UserCard, noteId) => ({ ...old, notes: old.notes.filter((n) => String(n.id) !== noteId) }),
  });
}
