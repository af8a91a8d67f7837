"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { fetchKeysetPage, keysetPaging } from "./inbox/keyset-page";
import { queryKeys } from "./query-keys";
import type { EmailDelivery, EmailState } from "./settings-types";
import { emailPath } from "./use-email-settings";

export const EMAIL_PAGE_SIZE = 20;

/** What the log is narrowed to; also part of its query key. */
export interface EmailDeliveryFilter {
  state?: EmailState;
  conversation?: string;
}

/** States that change by themselves (the queue sends, retries or gives up): polled while one is shown. */
const MOVING: readonly EmailState[] = ["queued", "deferred"];

/** The app's emails, newest first, a page at a time from where the API says the last one ended. */
export function useEmailDeliveries(appId: string, filter: EmailDeliveryFilter = {}) {
  return useInfiniteQuery({
    queryKey: queryKeys.email.deliveries(appId, filter),
    ...keysetPaging,
    queryFn: ({ pageParam, signal }) =>
      fetchKeysetPage<EmailDelivery>(
        `${emailPath(appId)}/deliveries`,
        {
          state: filter.state,
          conversation: filter.conversation,
          paginate_count: EMAIL_PAGE_SIZE,
          paginate_direction: "before",
          paginate_position: pageParam ?? undefined,
        },
        signal,
      ),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((e) => MOVING.includes(e.state))) ? 5000 : false,
  });
}
