"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { api, isApiClientError, setCsrfToken } from "./api";
import { queryKeys } from "./query-keys";

/** Logs out, forgets everything cached for the session and goes to the login page. */
export function useLogout() {
  const queryClient = useQueryClient();
  const router = useRouter();
  return useMutation({
    mutationFn: async () => {
      try {
        await api.post<Record<string, never>>("/api/auth/logout");
      } catch (err) {
        // Already logged out (expired session): that is what the operator wanted.
        if (!(isApiClientError(err) && err.status === 401)) throw err;
      }
    },
    onSuccess: () => {
      setCsrfToken(null);
      router.replace("/login");
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.auth.all[0] });
      queryClient.setQueryData(queryKeys.auth.me(), null);
    },
  });
}
