"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { MessengerSettings } from "./settings-types";
import { messengerPath } from "./use-messenger-settings";

/** The parameters of POST /apps/{id}/messenger: only those given change. */
export type MessengerSettingsUpdate = Partial<
  Pick<
    MessengerSettings,
    | "allowed_origins"
    | "identity_required"
    | "accent_color"
    | "position"
    | "greeting"
    | "team_intro"
    | "reply_time_text"
    | "offline_text"
    | "email_prompt"
  >
>;

/** Changes the settings: shown at once, rolled back on error, replaced by the server's (normalized) answer. */
export function useUpdateMessengerSettings(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.messenger.settings(appId);
  return useMutation({
    mutationFn: (input: MessengerSettingsUpdate) => api.post<MessengerSettings>(messengerPath(appId), input),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<MessengerSettings>(key);
      queryClient.setQueryData<MessengerSettings>(key, (old) => (old ? { ...old, ...input } : old));
      return { previous };
    },
    onError: (_e, _input, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSuccess: (updated) => queryClient.setQueryData(key, updated),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
