"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { cleanFilter } from "./lead-filters";
import { appPath, type LeadsPage, type LeadsQuery } from "./leads-types";
import { queryKeys } from "./query-keys";

/** One page of leads for the view in the URL, with the picked extra columns and tags. */
export function useLeads(appId: string, q: LeadsQuery, extra: string[]) {
  const filters = cleanFilter(q.filters);
  const params = {
    filters: filters.filters.length ? JSON.stringify(filters) : undefined,
    sort_prop: q.sort,
    sort_order: q.order,
    offset: (q.page - 1) * q.size,
    limit: q.size,
    props_extra: extra.length ? extra.join(",") : undefined,
    tags: true,
  };
  return useQuery({
    queryKey: queryKeys.leads.list(appId, params),
    queryFn: ({ signal }) => api.get<LeadsPage>(`${appPath(appId)}/users`, { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}
