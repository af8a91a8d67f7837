"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { messagePath, messagesPath, type Message, type MessageWrite } from "./messages-types";
import { queryKeys } from "./query-keys";

/**
 * Creates a message (`messageId` null) or replaces an existing one's fields. Not optimistic: the editor waits for
 * the server's verdict, whose `error_fields` it shows beside each field.
 */
export function useSaveMessage(appId: string, messageId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MessageWrite) =>
      api.post<Message>(messageId ? messagePath(appId, messageId) : messagesPath(appId), body),
    onSuccess: (m) => queryClient.setQueryData(queryKeys.messages.detail(appId, String(m.id)), m),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.messages.lists(appId) }),
  });
}
