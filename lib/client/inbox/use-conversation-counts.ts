"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import { countsPath } from "./paths";
import type { CountsResult } from "./types";

/** The tabs' counters (the socket handlers ask again, coalesced, after changes). */
export function useConversationCounts(appId: string) {
  return useQuery({
    queryKey: queryKeys.inbox.counts(appId),
    queryFn: ({ signal }) => api.get<CountsResult>(countsPath(appId), { signal }),
    staleTime: 5 * 60_000,
  });
}
