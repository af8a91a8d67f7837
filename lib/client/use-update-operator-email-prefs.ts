"use client";

import { api } from "./api";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";
import type { OperatorEmailPrefs } from "./settings-types";
import { OPERATOR_EMAILS_PATH } from "./use-operator-email-prefs";

/** Turns one of the operator's emails on or off: shown at once, rolled back on error. */
export function useUpdateOperatorEmailPrefs() {
  return useOptimisticMutation({
    key: queryKeys.email.mine(),
    mutationFn: (input: Partial<OperatorEmailPrefs>) =>
      api.post<OperatorEmailPrefs>(OPERATOR_EMAILS_PATH, input),
    patch: (old: OperatorEmailPrefs, input: Partial<OperatorEmailPrefs>) => ({ ...old, ...input }),
    refetchInBackground: true,
  });
}
