"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { usersPath, type Note, type UserCard } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Adds a note; it shows at the top at once (as "sending") and goes away again if the server refuses it. */
export function useAddUserNote(userId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.users.detail(userId);
  return useMutation({
    mutationFn: (body: string) => api.post<Note>(`${usersPath(userId)}/notes`, { body }),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<UserCard>(key);
      const temp: Note = {
        id: `pending-${Date.now()}`,
        app: previous?.app ?? "",
        user: userId,
        body,
        created: Math.floor(Date.now() / 1000),
        admin: null,
      };
      queryClient.setQueryData<UserCard>(key, (old) => (old ? { ...old, notes: [temp, ...old.notes] } : old));
      return { previous };
    },
    onError: (_e, _b, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
