"use client";

import { isOpen, nextOpening, officeHoursSchema, type OfficeHours } from "@/lib/apps/office-hours";
import type { OfficeHoursState } from "@/lib/apps/schemas";
import { api } from "./api";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";
import { officeHoursPath } from "./use-office-hours";

/**
 * The cached state as the server will answer it: the same schema and functions tell whether it is open, and until
 * when. Hours the server will refuse change nothing.
 */
function patch(old: OfficeHoursState, hours: OfficeHours | null): OfficeHoursState {
  if (!officeHoursSchema.nullable().safeParse(hours).success) return old;
  const now = new Date();
  return {
    ...old,
    office_hours: hours,
    open_now: isOpen(hours, old.time_zone, now),
    opens_at: nextOpening(hours, old.time_zone, now)?.toISOString() ?? null,
  };
}

/** Replaces the office hours whole (null: always open): shown at once, rolled back if the server refuses them. */
export function useUpdateOfficeHours(appId: string) {
  return useOptimisticMutation({
    key: queryKeys.officeHours.detail(appId),
    mutationFn: (hours: OfficeHours | null) =>
      api.post<OfficeHoursState>(officeHoursPath(appId), { office_hours: hours }),
    patch,
  });
}
