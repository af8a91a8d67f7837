"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { messagePath, type MessageStats } from "./messages-types";
import { queryKeys } from "./query-keys";

/** A message's statistics: exact counts for it and its control group, the goal's lift, and per day (UTC). */
export function useMessageStats(appId: string, messageId: string) {
  return useQuery({
    queryKey: queryKeys.messages.stats(appId, messageId),
    queryFn: ({ signal }) => api.get<MessageStats>(`${messagePath(appId, messageId)}/stats`, { signal }),
  });
}
