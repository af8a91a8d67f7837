"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { MessengerSettings } from "./settings-types";
import { messengerPath } from "./use-messenger-settings";

/** Makes a new public messenger key (snippets with the old one stop working). */
export function useRotatePublicKey(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.messenger.settings(appId);
  return useMutation({
    mutationFn: () => api.post<MessengerSettings>(`${messengerPath(appId)}/public_key`),
    onSuccess: (updated) => queryClient.setQueryData(key, updated),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
