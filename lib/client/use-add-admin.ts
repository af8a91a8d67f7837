"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type AdminMember, type AdminRole } from "./settings-types";

export interface AddAdminInput {
  email: string;
  name?: string;
  /** Only for a new admin: someone who already has an account keeps their password. */
  password?: string;
  role?: AdminRole;
}

/** Adds an operator; the list gains them when the server answers (it decides who they are). */
export function useAddAdmin(appId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.admins.list(appId);
  return useMutation({
    mutationFn: (input: AddAdminInput) => api.post<AdminMember>(`${appPath(appId)}/admins`, input),
    onSuccess: (added) => {
      queryClient.setQueryData<AdminMember[]>(key, (old) =>
        old ? [...old.filter((o) => String(o.id) !== String(added.id)), added] : old,
      );
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
