"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { usersPath } from "./leads-types";
import { queryKeys } from "./query-keys";

export type Outreach = "startconversation" | "sendmessage";

/**
 * Starts a conversation with the user: `sendmessage` is the operator writing first; `startconversation` records
 * a message from the visitor (as the API's widget would). Answers the new conversation's ID.
 */
export function useStartConversation(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: Outreach; body: string }) =>
      api.post<{ id: string | number }>(`${usersPath(userId)}/${input.kind}`, { body: input.body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.conversations(userId) }),
  });
}
