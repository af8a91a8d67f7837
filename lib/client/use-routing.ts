"use client";

import { useQuery } from "@tanstack/react-query";
import type { AppRouting } from "@/lib/apps/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

/** How the app routes new visitor conversations. */
export function useRouting(appId: string) {
  return useQuery({
    queryKey: queryKeys.availability.routing(appId),
    queryFn: ({ signal }) => api.get<AppRouting>(`${appPath(appId)}/routing`, { signal }),
  });
}
