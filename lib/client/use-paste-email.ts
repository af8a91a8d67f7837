"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { InboundResult } from "./settings-types";
import { emailPath } from "./use-email-settings";

/**
 * Hands a whole message, as a mail server would, to the app's inbound path. Nothing to show before the
 * answer: what it does (a new conversation, a reply, a bounce) is only known then.
 */
export function usePasteEmail(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (raw: string) => api.post<InboundResult>(`${emailPath(appId)}/inbound`, { raw }),
    // Not awaited: the outcome shows at once. A bounce marks one of the app's emails bounced; a message lands
    // in a conversation.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.email.deliveryLists(appId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.inbox.lists(appId) });
    },
  });
}
