"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type Channel } from "./settings-types";

/** The app's channels with their unassigned and unread counts. */
export function useChannels(appId: string) {
  return useQuery({
    queryKey: queryKeys.channels.list(appId),
    queryFn: ({ signal }) => api.get<Channel[]>(`${appPath(appId)}/channels`, { signal }),
  });
}
