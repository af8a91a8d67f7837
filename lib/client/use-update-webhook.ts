"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { Webhook, WebhookEventKind } from "./settings-types";
import { webhookPath } from "./use-webhook";

export interface UpdateWebhookInput {
  url?: string;
  events?: WebhookEventKind[];
  secret?: string;
  rotate_secret?: boolean;
  active?: boolean;
}

/** Changes a subscription; `active`, `url` and `events` show at once and roll back on error. */
export function useUpdateWebhook(appId: string, webhookId: string) {
  const queryClient = useQueryClient();
  const listKey = queryKeys.webhooks.list(appId);
  const detailKey = queryKeys.webhooks.detail(appId, webhookId);
  return useMutation({
    mutationFn: (input: UpdateWebhookInput) => api.patch<Webhook>(webhookPath(appId, webhookId), input),
    onMutate: async (input) => {
      await Promise.all([
        queryClient.cancelQueries({ queryKey: listKey }),
        queryClient.cancelQueries({ queryKey: detailKey }),
      ]);
      const previousList = queryClient.getQueryData<Webhook[]>(listKey);
      const previousDetail = queryClient.getQueryData<Webhook>(detailKey);
      const patch: Partial<Webhook> = {};
      if (input.active !== undefined) patch.active = input.active;
      if (input.url !== undefined) patch.url = input.url;
      if (input.events !== undefined) patch.events = input.events;
      queryClient.setQueryData<Webhook[]>(listKey, (old) =>
        old?.map((w) => (String(w.id) === webhookId ? { ...w, ...patch } : w)),
      );
      queryClient.setQueryData<Webhook>(detailKey, (old) => (old ? { ...old, ...patch } : old));
      return { previousList, previousDetail };
    },
    onError: (_err, _input, context) => {
      if (context?.previousList) queryClient.setQueryData(listKey, context.previousList);
      if (context?.previousDetail) queryClient.setQueryData(detailKey, context.previousDetail);
    },
    onSuccess: (updated) => queryClient.setQueryData(detailKey, updated),
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
}
