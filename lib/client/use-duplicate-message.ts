"use client";

import { api } from "./api";
import { messagePath, type Message } from "./messages-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

/** A pending copy's ID until the server's arrives: negative, so it is never a real message's. */
export const isPendingCopy = (m: Pick<Message, "id">) => Number(m.id) < 0;

/**
 * Copies a message (paused, its figures from nothing, as the server makes it): the copy heads the live list at
 * once, marked pending until the list is read again; it disappears if the server refuses.
 */
export function useDuplicateMessage(appId: string) {
  return useOptimisticMutation({
    key: queryKeys.messages.list(appId, "live"),
    mutationFn: (source: Message) => api.post<Message>(`${messagePath(appId, String(source.id))}/duplicate`),
    patch: (old: Message[], source) => [
      {
        ...source,
        id: -Date.now(),
        name: `${source.name} (copy)`,
        status: "paused" as const,
        figures: { sent: 0, read: 0, clicked: 0, replied: 0, unsubscribed: 0, goal: 0 },
      },
      ...old,
    ],
    alsoStale: [queryKeys.messages.lists(appId)],
  });
}
