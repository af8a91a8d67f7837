"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type Webhook } from "./settings-types";

/** The app's webhook subscriptions (secrets masked). */
export function useWebhooks(appId: string) {
  return useQuery({
    queryKey: queryKeys.webhooks.list(appId),
    queryFn: ({ signal }) => api.get<Webhook[]>(`${appPath(appId)}/webhooks`, { signal }),
  });
}
