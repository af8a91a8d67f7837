"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationsRead } from "@/lib/notifications/schemas";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import { markRead, type NotificationsData } from "./cache";

/** Marks notifications read (IDs, or "all"): the bell counts down at once and goes back up if the server refuses. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  const key = queryKeys.notifications.list();
  return useMutation({
    mutationFn: (ids: string[] | "all") =>
      api.post<NotificationsRead>("/api/notifications/read", ids === "all" ? { all: true } : { ids }),
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<NotificationsData>(key);
      queryClient.setQueryData<NotificationsData>(key, (old) =>
        markRead(old, ids, Math.floor(Date.now() / 1000)),
      );
      return { previous };
    },
    onError: (_e, _i, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSuccess: (r) =>
      queryClient.setQueryData<NotificationsData>(key, (old) => (old ? { ...old, unread: r.unread } : old)),
  });
}
