"use client";

import { useQuery } from "@tanstack/react-query";
import type { AppSettings } from "@/lib/apps/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

/** The app's settings: its name and the time zone its reports count days in. */
export function useAppSettings(appId: string) {
  return useQuery({
    queryKey: queryKeys.reports.settings(appId),
    queryFn: ({ signal }) => api.get<AppSettings>(`${appPath(appId)}/settings`, { signal }),
  });
}
