"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { Id, Webhook } from "./settings-types";
import { webhookPath } from "./use-webhook";

/** Deletes a subscription and its delivery log; it leaves the list at once and comes back on error. */
export function useDeleteWebhook(appId: string) {
  const queryClient = useQueryClient();
  const listKey = queryKeys.webhooks.list(appId);
  return useMutation({
    mutationFn: (webhookId: Id) => api.delete<Record<string, never>>(webhookPath(appId, String(webhookId))),
    onMutate: async (webhookId) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<Webhook[]>(listKey);
      queryClient.setQueryData<Webhook[]>(listKey, (old) =>
        old?.filter((w) => String(w.id) !== String(webhookId)),
      );
      return { previous };
    },
    onError: (_err, _id, context) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
    },
    onSuccess: (_data, webhookId) => {
      queryClient.removeQueries({ queryKey: queryKeys.webhooks.detail(appId, String(webhookId)) });
      queryClient.removeQueries({ queryKey: queryKeys.webhooks.deliveries(appId, String(webhookId)) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
}
