"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { isApiClientError, setCsrfToken } from "./api";
import { queryKeys } from "./query-keys";

function makeQueryClient(): QueryClient {
  // A 401 from any call means the session is gone: mark the operator logged out so the panel guard sends them to
  // the login page (the auth queries themselves handle 401 as "logged out", not as an error).
  const onError = (err: unknown) => {
    if (isApiClientError(err) && err.isUnauthenticated) {
      setCsrfToken(null);
      client.setQueryData(queryKeys.auth.me(), null);
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Client errors (4xx) will not change on retry.
        retry: (count, err) => !(isApiClientError(err) && err.status >= 400 && err.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
