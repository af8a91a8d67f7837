"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { conversationPath } from "./paths";
import { applyConversation } from "./realtime";
import type { Conversation } from "./types";

/** Marks the visitor's messages read for the operators; the unread badge clears at once. */
export function useMarkRead(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (c: Conversation) => api.post(`${conversationPath(String(c.id))}/read`),
    onMutate: (c) => applyConversation(queryClient, appId, { ...c, read: true, unread_parts_count: 0 }),
  });
}
