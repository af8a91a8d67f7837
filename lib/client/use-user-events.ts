"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "./api";
import { usersPath, type Id, type UserEvent } from "./leads-types";
import { queryKeys } from "./query-keys";

const PAGE = 20;

/** A user's events, newest first, a page at a time; `name` keeps only events of that name. */
export function useUserEvents(userId: string, name: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.users.events(userId, name),
    initialPageParam: undefined as Id | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get<UserEvent[]>(`${usersPath(userId)}/events`, {
        query: {
          filter_name: name || undefined,
          paginate_count: PAGE,
          paginate_position: pageParam === undefined ? undefined : [pageParam],
        },
        signal,
      }),
    getNextPageParam: (last) => (last.length === PAGE ? last[last.length - 1]?.id : undefined),
  });
}
