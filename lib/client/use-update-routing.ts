"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AppRouting } from "@/lib/apps/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

/**
 * Saves the routing mode, cap, assign-on-reply and per-channel operators (a channel with an empty list goes back
 * to all of them): shown at once, put back if the server refuses.
 */
export function useUpdateRouting(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.availability.routing(appId);
  return useMutation({
    // The API takes 0 for "no cap".
    mutationFn: (next: AppRouting) =>
      api.post<AppRouting>(`${appPath(appId)}/routing`, {
        routing: next.routing,
        routing_cap: next.routing_cap ?? 0,
        assign_on_reply: next.assign_on_reply,
        channel_operators: next.channel_operators,
      }),
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<AppRouting>(key);
      // As the server answers: only the channels that restrict routing.
      const restricted = Object.entries(next.channel_operators).filter(([, ops]) => ops.length > 0);
      queryClient.setQueryData(key, { ...next, channel_operators: Object.fromEntries(restricted) });
      return { previous };
    },
    onError: (_err, _next, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
}
