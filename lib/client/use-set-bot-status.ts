"use client";

import { api } from "./api";
import { botPath, type Bot, type BotStatus, type BotsView } from "./bots-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

export const botShownIn = (view: BotsView, status: BotStatus) =>
  view === "archived" ? status === "archived" : status !== "archived";

/**
 * Pauses, resumes, archives or restores a bot from a list: its row changes at once (or leaves the list when the
 * new status belongs to the other one), and is put back if the server refuses.
 */
export function useSetBotStatus(appId: string, view: BotsView) {
  return useOptimisticMutation({
    key: queryKeys.bots.list(appId, view),
    mutationFn: (input: { id: string; status: BotStatus }) =>
      api.post<Bot>(botPath(appId, input.id), { status: input.status }),
    patch: (old: Bot[], input) =>
      botShownIn(view, input.status)
        ? old.map((b) => (String(b.id) === input.id ? { ...b, status: input.status } : b))
        : old.filter((b) => String(b.id) !== input.id),
    alsoStale: [queryKeys.bots.app(appId)],
    refetchInBackground: true,
  });
}
