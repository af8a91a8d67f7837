"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { botPath, type Bot } from "./bots-types";
import { queryKeys } from "./query-keys";

/** One bot, as the editor starts from it. */
export function useBot(appId: string, botId: string) {
  return useQuery({
    queryKey: queryKeys.bots.detail(appId, botId),
    queryFn: ({ signal }) => api.get<Bot>(botPath(appId, botId), { signal }),
  });
}
