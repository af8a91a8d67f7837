"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminAvailability, Availability } from "@/lib/admins/schemas";
import { api } from "./api";
import { patchAvailability } from "./availability-realtime";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

/** Sets the operator Available or Away: the toggle flips at once and flips back if the server refuses. */
export function useSetAvailability(appId: string, adminId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.availability.list(appId);
  return useMutation({
    mutationFn: (status: Availability) =>
      api.post<AdminAvailability>(`${appPath(appId)}/availability`, { status }),
    onMutate: async (status) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<AdminAvailability[]>(key);
      queryClient.setQueryData<AdminAvailability[]>(key, (old) =>
        old?.map((x) => (String(x.admin_id) === adminId ? { ...x, availability: status } : x)),
      );
      return { previous };
    },
    onError: (_err, _status, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (row) => patchAvailability(queryClient, appId, row),
  });
}
