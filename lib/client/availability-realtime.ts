import type { QueryClient } from "@tanstack/react-query";
import type { AdminAvailability } from "@/lib/admins/schemas";
import { appChannel } from "@/lib/contract/socket";
import { queryKeys } from "./query-keys";

/** The channel teammates' availability changes arrive on. */
export const availabilityChannel = (appId: string) => appChannel("admin_availability", appId);

/**
 * Puts one operator's new availability in the app's list (added when the list predates them): the answer to the
 * operator's own change, and `admin_availability.<app>` for a teammate's, without a refetch.
 */
export function patchAvailability(qc: QueryClient, appId: string, m: AdminAvailability): void {
  qc.setQueryData<AdminAvailability[]>(queryKeys.availability.list(appId), (old) => {
    if (!old) return old;
    const i = old.findIndex((x) => String(x.admin_id) === String(m.admin_id));
    // A message older than what we hold (a replay after a reconnect) must not put an older state back.
    if (i >= 0 && old[i]!.changed > m.changed) return old;
    return i < 0 ? [...old, m] : old.map((x, k) => (k === i ? m : x));
  });
}
