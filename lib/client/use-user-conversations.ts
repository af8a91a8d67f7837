"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { usersPath, type UserConversation } from "./leads-types";
import { queryKeys } from "./query-keys";

/** The user's newest conversations (every one, also those the Inbox does not list yet). */
export function useUserConversations(userId: string) {
  return useQuery({
    queryKey: queryKeys.users.conversations(userId),
    queryFn: ({ signal }) =>
      api.get<UserConversation[]>(`${usersPath(userId)}/conversations`, {
        query: { paginate_count: 20, user: false },
        signal,
      }),
  });
}
