"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type Operator, type OperatorRole } from "./settings-types";

export interface AddOperatorInput {
  email: string;
  name?: string;
  /** Only for a new admin: someone who already has an account keeps their password. */
  password?: string;
  role?: OperatorRole;
}

/** Adds an operator; the list gains them when the server answers (it decides who they are). */
export function useAddOperator(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.operators.list(appId);
  return useMutation({
    mutationFn: (input: AddOperatorInput) => api.post<Operator>(`${appPath(appId)}/admins`, input),
    onSuccess: (added) => {
      queryClient.setQueryData<Operator[]>(key, (old) =>
        old ? [...old.filter((o) => String(o.id) !== String(added.id)), added] : old,
      );
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
