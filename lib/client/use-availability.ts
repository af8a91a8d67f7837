"use client";

import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AdminAvailability } from "@/lib/admins/schemas";
import { api } from "./api";
import { availabilityChannel } from "./availability-realtime";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";
import { useSocket } from "./use-socket";

/** The app's operators' availability, kept live by `admin_availability.<app>` while mounted. */
export function useAvailability(appId: string) {
  const { subscribe } = useSocket();
  useEffect(() => subscribe([availabilityChannel(appId)]), [subscribe, appId]);
  return useQuery({
    queryKey: queryKeys.availability.list(appId),
    queryFn: ({ signal }) => api.get<AdminAvailability[]>(`${appPath(appId)}/availability`, { signal }),
  });
}
