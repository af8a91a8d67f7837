"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { Scope } from "@/lib/auth/scopes";
import { appPath, type ApiKey, type NewApiKey } from "./settings-types";

export interface CreateApiKeyInput {
  name: string;
  scopes: Scope[];
}

/** Creates a key; the result carries the token, which the server never shows again. */
export function useCreateApiKey(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => api.post<NewApiKey>(`${appPath(appId)}/api_keys`, input),
    onSuccess: (created) => {
      // The token stays out of the cache: only the form that asked for it shows it.
      const { token: _token, ...key } = created;
      queryClient.setQueryData<ApiKey[]>(queryKeys.apiKeys.list(appId), (old) =>
        old ? [key, ...old.filter((k) => String(k.id) !== String(key.id))] : old,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.list(appId) });
    },
  });
}
