"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { OperatorEmailPrefs } from "./settings-types";

export const OPERATOR_EMAILS_PATH = "/api/me/email_notifications";

/** Which emails the logged-in operator gets, whatever the app. */
export function useOperatorEmailPrefs() {
  return useQuery({
    queryKey: queryKeys.email.mine(),
    queryFn: ({ signal }) => api.get<OperatorEmailPrefs>(OPERATOR_EMAILS_PATH, { signal }),
  });
}
