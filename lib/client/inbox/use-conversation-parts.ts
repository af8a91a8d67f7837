"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { requestEnvelope } from "../api";
import { queryKeys } from "../query-keys";
import { conversationPath } from "./paths";
import type { Page, ThreadPart } from "./types";

const PAGE = 30;

/** A thread, newest page first; `fetchNextPage` loads older parts (scrolling up). New parts come by socket. */
export function useConversationParts(id: string | null) {
  return useInfiniteQuery({
    queryKey: queryKeys.inbox.parts(id ?? ""),
    queryFn: async ({ pageParam, signal }): Promise<Page<ThreadPart>> => {
      const res = await requestEnvelope<ThreadPart[]>("GET", `${conversationPath(id!)}/parts`, {
        signal,
        query: { paginate_count: PAGE, paginate_position: pageParam ?? undefined },
      });
      const next = res.meta.next_before_position;
      return { items: res.data, next: Array.isArray(next) ? (next as (number | string)[]) : null };
    },
    initialPageParam: null as (number | string)[] | null,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: id !== null,
    staleTime: 5 * 60_000,
  });
}
