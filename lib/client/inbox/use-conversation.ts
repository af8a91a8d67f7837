"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import { findConversation, type ConversationPages } from "./list-cache";
import { conversationPath } from "./paths";
import type { Conversation } from "./types";

/** One conversation; shown at once from a loaded list while the server's copy (with its channel) arrives. */
export function useConversation(appId: string, id: string | null) {
  const queryClient = useQueryClient();
  return useQuery<Conversation>({
    queryKey: queryKeys.inbox.conversation(id ?? ""),
    queryFn: ({ signal }) => api.get<Conversation>(conversationPath(id!), { signal }),
    enabled: id !== null,
    placeholderData: (): Conversation | undefined => {
      if (id === null) return undefined;
      for (const [, data] of queryClient.getQueriesData<ConversationPages>({
        queryKey: queryKeys.inbox.lists(appId),
      })) {
        const hit = findConversation(data, id);
        if (hit) return hit;
      }
      return undefined;
    },
    staleTime: 5 * 60_000,
  });
}
