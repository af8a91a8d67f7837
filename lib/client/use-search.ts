"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { SearchKind, SearchResult, SearchState } from "@/lib/search/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

export interface SearchParams {
  q: string;
  kind: SearchKind;
  state?: SearchState;
  /** An admin's ID, or "0" for unassigned. */
  assignee?: string;
  /** Unix seconds. */
  from?: number;
}

/** The search box's results: nothing is asked for an empty query; the last results stay while the next load. */
export function useSearch(appId: string, params: SearchParams) {
  const q = params.q.trim();
  return useQuery({
    queryKey: queryKeys.search.results(appId, { ...params, q }),
    queryFn: ({ signal }) =>
      api.get<SearchResult>(`${appPath(appId)}/search`, {
        query: {
          q,
          kind: params.kind,
          state: params.state,
          assignee: params.assignee,
          from: params.from,
          limit: 10,
        },
        signal,
      }),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
