"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type AdminMember } from "./settings-types";

/** The app's operators, oldest member first. */
export function useAdmins(appId: string) {
  return useQuery({
    queryKey: queryKeys.admins.list(appId),
    queryFn: ({ signal }) => api.get<AdminMember[]>(`${appPath(appId)}/admins`, { signal }),
  });
}
