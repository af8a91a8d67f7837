"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type Webhook } from "./settings-types";

export const webhookPath = (appId: string, webhookId: string) =>
  `${appPath(appId)}/webhooks/${encodeURIComponent(webhookId)}`;

/** One subscription, with its signing secret. */
export function useWebhook(appId: string, webhookId: string) {
  return useQuery({
    queryKey: queryKeys.webhooks.detail(appId, webhookId),
    queryFn: ({ signal }) => api.get<Webhook>(webhookPath(appId, webhookId), { signal }),
  });
}
