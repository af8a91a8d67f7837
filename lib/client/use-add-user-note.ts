"use client";

import { api } from "./api";
import { usersPath, type Note, type UserCard } from "./leads-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

/** Adds a note; it shows at the top at once (as "sending") and goes away again if the server refuses it. */
export function useAddUserNote(userId: string) {
  return useOptimisticMutation({
    key: queryKeys.users.detail(userId),
    mutationFn: (body: string) => api.post<Note>(`${usersPath(userId)}/notes`, { body }),
    patch: (old: UserCard, body) => {
      const temp: Note = {
        id: `pending-${Date.now()}`,
        app: old.app,
        user: userId,
        body,
        created: Math.floor(Date.now() / 1000),
        admin: null,
      };
      return { ...old, notes: [temp, ...old.notes] };
    },
  });
}
