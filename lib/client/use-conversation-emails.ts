"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { EmailDelivery, EmailState } from "./settings-types";
import { emailPath } from "./use-email-settings";

/** A conversation's emails are few: one page, newest first, is all of them in practice. */
const COUNT = 50;
/** States that change by themselves (the queue sends, retries or gives up): looked at again soon. */
const MOVING: readonly EmailState[] = ["queued", "deferred"];
/**
 * An operator's reply is emailed only after the app's delay, by a job, and no socket event says so: the list is
 * read again while the thread is open (never in a hidden tab, React Query's default).
 */
const IDLE_POLL_MS = 20_000;

/** The emails composed for one conversation (to its visitor and its operators), newest first. */
export function useConversationEmails(appId: string, conversationId: string) {
  return useQuery({
    queryKey: queryKeys.email.conversation(appId, conversationId),
    queryFn: ({ signal }) =>
      api.get<EmailDelivery[]>(`${emailPath(appId)}/deliveries`, {
        query: { conversation: conversationId, paginate_count: COUNT },
        signal,
      }),
    refetchInterval: (query) =>
      query.state.data?.some((e) => MOVING.includes(e.state)) ? 5000 : IDLE_POLL_MS,
  });
}
