"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { botPath, botsPath, type Bot, type BotWrite } from "./bots-types";
import { queryKeys } from "./query-keys";

/**
 * Creates a bot (`botId` null) or replaces an existing one's fields. Not optimistic: the editor waits for the
 * server's verdict, whose `error_fields` it shows beside each field and step.
 */
export function useSaveBot(appId: string, botId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BotWrite) => api.post<Bot>(botId ? botPath(appId, botId) : botsPath(appId), body),
    onSuccess: (b) => queryClient.setQueryData(queryKeys.bots.detail(appId, String(b.id)), b),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.bots.lists(appId) }),
  });
}
