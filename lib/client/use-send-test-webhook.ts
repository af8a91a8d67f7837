"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { WebhookDelivery } from "./settings-types";
import { webhookPath } from "./use-webhook";

/** Queues a `test` delivery; the delivery log refreshes to show it. */
export function useSendTestWebhook(appId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<WebhookDelivery>(`${webhookPath(appId, webhookId)}/test`),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(appId, webhookId) }),
  });
}
