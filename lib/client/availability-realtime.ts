import type { QueryClient } from "@tanstack/react-query";
import type { AdminAvailability } from "@/lib/admins/schemas";
import { queryKeys } from "./query-keys";

// The dispatcher's handler shape, restated so this module does not import the dispatcher that imports it.
type RealtimeHandler = (
  msg: { channel: string; message: unknown },
  ctx: { queryClient: QueryClient },
) => void;

/** The channel teammates' availability changes arrive on. */
export const availabilityChannel = (appId: string) => `admin_availability.${appId}`;

/** Puts one operator's new availability in the app's list (added when the list predates them). */
export function patchAvailability(qc: QueryClient, appId: string, m: AdminAvailability): void {
  qc.setQueryData<AdminAvailability[]>(queryKeys.availability.list(appId), (old) => {
    if (!old) return old;
    const i = old.findIndex((x) => String(x.admin_id) === String(m.admin_id));
    // A message older than what we hold (a replay after a reconnect) must not put an older state back.
    if (i >= 0 && old[i]!.changed > m.changed) return old;
    return i < 0 ? [...old, m] : old.map((x, k) => (k === i ? m : x));
  });
}

/** `admin_availability.<app>`: a teammate's dot changes without a refetch. */
export const onAdminAvailability: RealtimeHandler = (msg, { queryClient }) => {
  const m = msg.message as AdminAvailability | undefined;
  if (!m || m.admin_id === undefined || (m.availability !== "available" && m.availability !== "away")) return;
  patchAvailability(queryClient, msg.channel.split(".")[1] ?? String(m.app), m);
};
