"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { Id, WebhookDelivery } from "./settings-types";
import { webhookPath } from "./use-webhook";

export const DELIVERIES_PAGE_SIZE = 20;

/**
 * A subscription's delivery log, newest first, one page at a time (older pages before the last ID seen). Polls
 * while a delivery is still pending, so a test shows its outcome by itself.
 */
export function useWebhookDeliveries(appId: string, webhookId: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.webhooks.deliveries(appId, webhookId),
    initialPageParam: null as Id | null,
    queryFn: ({ pageParam, signal }) =>
      api.get<WebhookDelivery[]>(`${webhookPath(appId, webhookId)}/deliveries`, {
        signal,
        query: {
          paginate_count: DELIVERIES_PAGE_SIZE,
          paginate_direction: "before",
          paginate_position: pageParam === null ? undefined : [pageParam],
        },
      }),
    getNextPageParam: (last) =>
      last.length < DELIVERIES_PAGE_SIZE ? undefined : (last[last.length - 1]?.id ?? undefined),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.some((d) => d.status === "pending")) ? 2000 : false,
  });
}
