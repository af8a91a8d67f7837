"use client";

import { useQuery } from "@tanstack/react-query";
import type { Notification } from "@/lib/notifications/schemas";
import { requestEnvelope } from "../api";
import { queryKeys } from "../query-keys";
import { LIST_LIMIT, type NotificationsData } from "./cache";

/** The operator's notifications and unread count; the socket keeps them current (./realtime.ts). */
export function useNotifications(opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.notifications.list(),
    queryFn: async ({ signal }): Promise<NotificationsData> => {
      const r = await requestEnvelope<Notification[]>("GET", "/api/notifications", {
        query: { limit: LIST_LIMIT },
        signal,
      });
      return { items: r.data, unread: typeof r.meta.unread === "number" ? r.meta.unread : 0 };
    },
    enabled: opts.enabled ?? true,
  });
}
