"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { MessengerSettingsWithSecret } from "./settings-types";
import { messengerPath } from "./use-messenger-settings";

/**
 * Makes a new identity secret. The answer is the only place it is shown: the caller keeps it on screen, and the
 * cache is refetched for the new hint rather than holding the secret.
 */
export function useRotateIdentitySecret(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<MessengerSettingsWithSecret>(`${messengerPath(appId)}/identity_secret`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.messenger.settings(appId) }),
  });
}
