"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { appPath, type Segment } from "./leads-types";
import { queryKeys } from "./query-keys";

export function useSegments(appId: string) {
  return useQuery({
    queryKey: queryKeys.leads.segments(appId),
    queryFn: ({ signal }) => api.get<Segment[]>(`${appPath(appId)}/segments`, { signal }),
  });
}
