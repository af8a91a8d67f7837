"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type Webhook, type WebhookEventKind } from "./settings-types";

export interface CreateWebhookInput {
  url: string;
  events: WebhookEventKind[];
  /** Generated (whsec_…) when left out. */
  secret?: string;
  active?: boolean;
}

/** Subscribes a URL; the result carries the signing secret. */
export function useCreateWebhook(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) => api.post<Webhook>(`${appPath(appId)}/webhooks`, input),
    onSuccess: (created) => {
      queryClient.setQueryData(queryKeys.webhooks.detail(appId, String(created.id)), created);
      queryClient.setQueryData<Webhook[]>(queryKeys.webhooks.list(appId), (old) =>
        old ? [...old.filter((w) => String(w.id) !== String(created.id)), created] : old,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.list(appId) });
    },
  });
}
