"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { botPath, type BotStats } from "./bots-types";
import { queryKeys } from "./query-keys";

/** A bot's statistics: its runs by outcome, per day (UTC) and per step of its tree. */
export function useBotStats(appId: string, botId: string) {
  return useQuery({
    queryKey: queryKeys.bots.stats(appId, botId),
    queryFn: ({ signal }) => api.get<BotStats>(`${botPath(appId, botId)}/stats`, { signal }),
  });
}
