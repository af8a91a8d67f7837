"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type ApiKey, type Id } from "./settings-types";

/** Revokes a key; the list shows it revoked at once and goes back if the server refuses. */
export function useRevokeApiKey(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.apiKeys.list(appId);
  return useMutation({
    mutationFn: (keyId: Id) =>
      api.delete<Record<string, never>>(`${appPath(appId)}/api_keys/${encodeURIComponent(String(keyId))}`),
    onMutate: async (keyId) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<ApiKey[]>(key);
      queryClient.setQueryData<ApiKey[]>(key, (old) =>
        old?.map((k) => (String(k.id) === String(keyId) ? { ...k, revoked: true } : k)),
      );
      return { previous };
    },
    onError: (_err, _keyId, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
