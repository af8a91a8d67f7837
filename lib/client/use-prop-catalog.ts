"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { appPath, type CatalogProp } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Every property a filter or a column can name, with its type. */
export function usePropCatalog(appId: string) {
  return useQuery({
    queryKey: queryKeys.leads.props(appId),
    queryFn: ({ signal }) => api.get<CatalogProp[]>(`${appPath(appId)}/props`, { signal }),
    staleTime: 60_000,
  });
}
