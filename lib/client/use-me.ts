"use client";

import { useQuery } from "@tanstack/react-query";
import { api, isApiClientError, setCsrfToken, type Me } from "./api";
import { queryKeys } from "./query-keys";

/** The operator's session, or `null` when nobody is logged in (401 is an answer here, not an error). */
export async function fetchMe(signal?: AbortSignal): Promise<Me | null> {
  try {
    const me = await api.get<Me>("/api/auth/me", { signal });
    setCsrfToken(me.csrf_token);
    return me;
  } catch (err) {
    if (isApiClientError(err) && err.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw err;
  }
}

export function useMe() {
  return useQuery({
    queryKey: queryKeys.auth.me(),
    queryFn: ({ signal }) => fetchMe(signal),
    staleTime: 5 * 60_000,
  });
}
