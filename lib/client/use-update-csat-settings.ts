"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CsatSettings } from "@/lib/csat/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

/** Turns asking for ratings on or off: shown at once, put back if the server refuses. */
export function useUpdateCsatSettings(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.csat.settings(appId);
  return useMutation({
    mutationFn: (enabled: boolean) => api.post<CsatSettings>(`${appPath(appId)}/csat`, { enabled }),
    onMutate: async (enabled) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CsatSettings>(key);
      if (previous) queryClient.setQueryData<CsatSettings>(key, { ...previous, enabled });
      return { previous };
    },
    onError: (_err, _next, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
