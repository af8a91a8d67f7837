"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { EmailPreview } from "./settings-types";
import { emailPath } from "./use-email-settings";

/** One email as it was composed: From, Reply-To, its text and its HTML. */
export function useEmailDelivery(appId: string, emailId: string) {
  return useQuery({
    queryKey: queryKeys.email.delivery(appId, emailId),
    queryFn: ({ signal }) =>
      api.get<EmailPreview>(`${emailPath(appId)}/deliveries/${encodeURIComponent(emailId)}`, { signal }),
  });
}
