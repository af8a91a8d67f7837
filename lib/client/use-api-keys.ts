"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type ApiKey } from "./settings-types";

/** The app's API keys, newest first (revoked ones included). */
export function useApiKeys(appId: string) {
  return useQuery({
    queryKey: queryKeys.apiKeys.list(appId),
    queryFn: ({ signal }) => api.get<ApiKey[]>(`${appPath(appId)}/api_keys`, { signal }),
  });
}
