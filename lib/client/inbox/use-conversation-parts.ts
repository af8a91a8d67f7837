"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { queryKeys } from "../query-keys";
import { fetchKeysetPage, keysetPaging } from "./keyset-page";
import { conversationPath } from "./paths";
import type { ThreadPart } from "./types";

const PAGE = 30;

/** A thread, newest page first; `fetchNextPage` loads older parts (scrolling up). New parts come by socket. */
export function useConversationParts(id: string | null) {
  return useInfiniteQuery({
    queryKey: queryKeys.inbox.parts(id ?? ""),
    queryFn: ({ pageParam, signal }) =>
      fetchKeysetPage<ThreadPart>(
        `${conversationPath(id!)}/parts`,
        { paginate_count: PAGE, paginate_position: pageParam ?? undefined },
        signal,
      ),
    ...keysetPaging,
    enabled: id !== null,
    staleTime: 5 * 60_000,
  });
}
