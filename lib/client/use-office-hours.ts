"use client";

import { useQuery } from "@tanstack/react-query";
import type { OfficeHoursState } from "@/lib/apps/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

export const officeHoursPath = (appId: string) => `${appPath(appId)}/office_hours`;

/** The app's office hours, its time zone, and whether it is open now (asked again each minute, as that changes). */
export function useOfficeHours(appId: string) {
  return useQuery({
    queryKey: queryKeys.officeHours.detail(appId),
    queryFn: ({ signal }) => api.get<OfficeHoursState>(officeHoursPath(appId), { signal }),
    refetchInterval: 60_000,
  });
}
