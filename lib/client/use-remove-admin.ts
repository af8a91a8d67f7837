"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type Id, type AdminMember } from "./settings-types";

/** Removes an operator from the app: gone from the list at once, back if the server refuses. */
export function useRemoveAdmin(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.admins.list(appId);
  return useMutation({
    mutationFn: (adminId: Id) =>
      api.delete<{ unassigned: number }>(`${appPath(appId)}/admins/${encodeURIComponent(String(adminId))}`),
    onMutate: async (adminId) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<AdminMember[]>(key);
      queryClient.setQueryData<AdminMember[]>(key, (old) =>
        old?.filter((o) => String(o.id) !== String(adminId)),
      );
      return { previous };
    },
    onError: (_err, _adminId, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    // Their unassigned conversations reach the Inbox through the usual realtime events.
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
