"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, setCsrfToken, type Me } from "./api";
import { queryKeys } from "./query-keys";

export interface LoginInput {
  email: string;
  password: string;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post<Me>("/api/auth/login", input),
    onSuccess: (me) => {
      setCsrfToken(me.csrf_token);
      // Whatever was cached belonged to the previous session.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.auth.all[0] });
      queryClient.setQueryData(queryKeys.auth.me(), me);
    },
  });
}
