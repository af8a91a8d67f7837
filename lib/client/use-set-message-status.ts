"use client";

import { api } from "./api";
import { messagePath, type Message, type MessagesView, type MessageStatus } from "./messages-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

export const shownIn = (view: MessagesView, status: MessageStatus) =>
  view === "archived" ? status === "archived" : status !== "archived";

/**
 * Pauses, resumes, archives or restores a message from a list: its row changes at once (or leaves the list when
 * the new status belongs to the other one), and is put back if the server refuses.
 */
export function useSetMessageStatus(appId: string, view: MessagesView) {
  return useOptimisticMutation({
    key: queryKeys.messages.list(appId, view),
    mutationFn: (input: { id: string; status: MessageStatus }) =>
      api.post<Message>(messagePath(appId, input.id), { status: input.status }),
    patch: (old: Message[], input) =>
      shownIn(view, input.status)
        ? old.map((m) => (String(m.id) === input.id ? { ...m, status: input.status } : m))
        : old.filter((m) => String(m.id) !== input.id),
    alsoStale: [queryKeys.messages.app(appId)],
    refetchInBackground: true,
  });
}
