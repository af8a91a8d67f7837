"use client";

import { useQuery } from "@tanstack/react-query";
import type { ConversationRating } from "@/lib/csat/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";

/** A conversation's rating request and rating (null: never asked); patched live by `conversation_rating`. */
export function useConversationRating(conversationId: string) {
  return useQuery({
    queryKey: queryKeys.csat.conversation(conversationId),
    queryFn: ({ signal }) =>
      api.get<ConversationRating | null>(`/api/conversations/${conversationId}/rating`, { signal }),
  });
}
