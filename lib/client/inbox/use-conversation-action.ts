"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { api } from "../api";
import { queryKeys } from "../query-keys";
import { conversationPath } from "./paths";
import { applyConversation } from "./realtime";
import type { Actor, Conversation } from "./types";

export type ConversationAction =
  | { kind: "assign"; admin: Actor | null }
  | { kind: "close" }
  | { kind: "reopen" }
  /** Unix seconds; null wakes it now. */
  | { kind: "delay"; until: number | null }
  | { kind: "tag"; tag: string; add: boolean };

function send(id: string, a: ConversationAction): Promise<unknown> {
  const base = conversationPath(id);
  switch (a.kind) {
    case "assign":
      return api.post(`${base}/assign`, { admin: a.admin ? String(a.admin.id) : "" });
    case "close":
      return api.post(`${base}/close`);
    case "reopen":
      return api.post(`${base}/reopen`);
    case "delay":
      return api.post(`${base}/delay`, a.until === null ? { cancel: true } : { until: a.until });
    case "tag":
      return a.add
        ? api.post(`${base}/tag`, { tag: a.tag })
        : api.delete(`${base}/tag`, { query: { tag: a.tag } });
  }
}

/** What the conversation will look like; the socket's copy replaces it moments later. */
function predict(c: Conversation, a: ConversationAction): Conversation {
  const moved = { ...c, last_update: Math.max(c.last_update, Date.now() / 1000) };
  switch (a.kind) {
    case "assign":
      return { ...moved, assignee: a.admin };
    case "close":
      return { ...moved, closed: true, delayed_until: null };
    case "reopen":
      return { ...moved, closed: false };
    case "delay":
      return { ...moved, closed: false, delayed_until: a.until };
    case "tag":
      return {
        ...moved,
        tags: a.add ? [...new Set([...c.tags, a.tag])] : c.tags.filter((t) => t !== a.tag),
      };
  }
}

export interface ConversationActionInput {
  /** The conversation as shown when the operator acted; carried with the action, not read when it runs. */
  conversation: Conversation;
  action: ConversationAction;
}

/**
 * Assign, close, reopen, snooze and tag: shown at once in the lists and the thread, rolled back on error. The
 * conversation travels in the mutation's input: React Query hands a running mutation the options of the latest
 * render, so a conversation read from them after an await may already be the next one the operator opened.
 */
export function useConversationAction(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conversation, action }: ConversationActionInput) => send(String(conversation.id), action),
    onMutate: async ({ conversation, action }) => {
      const id = String(conversation.id);
      await queryClient.cancelQueries({ queryKey: queryKeys.inbox.lists(appId) });
      const snapshot: [QueryKey, unknown][] = [
        ...queryClient.getQueriesData({ queryKey: queryKeys.inbox.lists(appId) }),
        [queryKeys.inbox.conversation(id), queryClient.getQueryData(queryKeys.inbox.conversation(id))],
      ];
      const current =
        queryClient.getQueryData<Conversation>(queryKeys.inbox.conversation(id)) ?? conversation;
      applyConversation(queryClient, appId, predict(current, action));
      return { snapshot };
    },
    onError: (_err, _input, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
      void queryClient.invalidateQueries({ queryKey: queryKeys.inbox.counts(appId) });
    },
  });
}
