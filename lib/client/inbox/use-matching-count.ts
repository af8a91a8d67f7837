"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import type { ListParams } from "./filters";
import { bulkPath } from "./paths";

interface MatchingCount {
  count: number;
  over_limit: boolean;
}

/** How many conversations the list's filter matches (for "select all N matching"); asked only when `enabled`. */
export function useMatchingCount(appId: string, params: ListParams, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.bulk.count(appId, params),
    queryFn: ({ signal }) =>
      api.get<MatchingCount>(`${bulkPath(appId)}_count`, {
        signal,
        query: { ...params },
      }),
    enabled,
    staleTime: 5_000,
  });
}
