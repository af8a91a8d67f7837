"use client";

import { useQuery } from "@tanstack/react-query";
import type { FilterGroup } from "@/lib/leads/filter-grammar";
import { api, isApiClientError } from "./api";
import { cleanFilter } from "./lead-filters";
import { appPath, type LeadsPage } from "./leads-types";
import { queryKeys } from "./query-keys";
import { useDebounced } from "./use-debounced";

/** Long enough that a value typed letter by letter is counted once. */
const COUNT_AFTER_MS = 400;

export type AudienceSize =
  | { state: "everyone" }
  | { state: "counting" }
  | { state: "counted"; total: number }
  | { state: "failed"; message: string };

/**
 * How many leads an audience matches now, counted by the server from the leads list (the Leads page's request,
 * one row: the endpoint has no count-only form, and its `total` is the filters' whole count). Only complete
 * conditions are counted, as only they are saved.
 */
export function useAudienceSize(appId: string, audience: FilterGroup): AudienceSize {
  const cleaned = cleanFilter(audience);
  const filters = cleaned.filters.length ? JSON.stringify(cleaned) : "";
  const settled = useDebounced(filters, COUNT_AFTER_MS);
  const query = useQuery({
    queryKey: queryKeys.leads.count(appId, settled),
    queryFn: ({ signal }) =>
      api.get<LeadsPage>(`${appPath(appId)}/users`, { query: { filters: settled, limit: 1 }, signal }),
    select: (page) => page.total,
    enabled: settled !== "",
  });
  if (filters === "") return { state: "everyone" };
  // Until the edits settle, the count on screen would be of an audience no longer shown.
  if (settled !== filters || query.isPending) return { state: "counting" };
  if (query.isError)
    return {
      state: "failed",
      message: isApiClientError(query.error) ? query.error.message : "Something went wrong.",
    };
  return { state: "counted", total: query.data };
}
