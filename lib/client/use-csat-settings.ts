"use client";

import { useQuery } from "@tanstack/react-query";
import type { CsatSettings } from "@/lib/csat/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

/** Whether the app asks visitors to rate closed conversations. */
export function useCsatSettings(appId: string) {
  return useQuery({
    queryKey: queryKeys.csat.settings(appId),
    queryFn: ({ signal }) => api.get<CsatSettings>(`${appPath(appId)}/csat`, { signal }),
  });
}
