"use client";

import type { AppSettings } from "@/lib/apps/schemas";
import { api } from "./api";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

/**
 * Sets the app's time zone (POST /apps/{id}/settings): shown at once, rolled back if the server refuses it. The
 * office hours and every report are read in that zone, so they are refetched.
 */
export function useUpdateTimeZone(appId: string) {
  return useOptimisticMutation({
    key: queryKeys.reports.settings(appId),
    mutationFn: (timeZone: string) =>
      api.post<AppSettings>(`${appPath(appId)}/settings`, { time_zone: timeZone }),
    patch: (old: AppSettings, timeZone: string) => ({ ...old, time_zone: timeZone }),
    alsoStale: [queryKeys.officeHours.detail(appId), queryKeys.reports.all],
  });
}
