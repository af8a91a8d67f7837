"use client";

import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { queryKeys } from "../query-keys";
import type { ListParams } from "./filters";
import { fetchKeysetPage, keysetPaging } from "./keyset-page";
import { conversationsPath } from "./paths";
import { reconcileFetchedLists } from "./realtime";
import type { Conversation } from "./types";

export const LIST_PAGE_SIZE = 30;

/**
 * One filter's conversations, newest first, a keyset page at a time; the socket keeps loaded pages current, and
 * every answer is brought up to the messages that came while it was in flight (reconcileFetchedLists).
 */
export function useInboxConversations(appId: string, params: ListParams) {
  const queryClient = useQueryClient();
  useEffect(() => reconcileFetchedLists(queryClient, appId), [queryClient, appId]);
  return useInfiniteQuery({
    queryKey: queryKeys.inbox.list(appId, params),
    queryFn: ({ pageParam, signal }) =>
      fetchKeysetPage<Conversation>(
        conversationsPath(appId),
        {
          ...params,
          include_channel: params.channel !== undefined,
          paginate_count: LIST_PAGE_SIZE,
          paginate_position: pageParam ?? undefined,
        },
        signal,
      ),
    ...keysetPaging,
    // Live through the socket; a remount shows the cache without asking again.
    staleTime: 5 * 60_000,
  });
}
