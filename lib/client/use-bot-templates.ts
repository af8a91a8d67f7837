"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { botTemplatesPath, type BotTemplate } from "./bots-types";
import { queryKeys } from "./query-keys";

/** The bots a new one starts from (the routing bot's buttons are the app's channels, hence per app). */
export function useBotTemplates(appId: string) {
  return useQuery({
    queryKey: queryKeys.bots.templates(appId),
    queryFn: ({ signal }) => api.get<BotTemplate[]>(botTemplatesPath(appId), { signal }),
  });
}
