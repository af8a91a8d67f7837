"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { botsPath, type Bot, type BotsView } from "./bots-types";
import { queryKeys } from "./query-keys";

/** The app's bots, newest first: the live ones (active and paused) or the archived ones, with their figures. */
export function useBots(appId: string, view: BotsView) {
  return useQuery({
    queryKey: queryKeys.bots.list(appId, view),
    queryFn: ({ signal }) =>
      api.get<Bot[]>(botsPath(appId), { query: view === "archived" ? { status: "archived" } : {}, signal }),
  });
}
