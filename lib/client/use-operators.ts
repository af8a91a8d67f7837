"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type Operator } from "./settings-types";

/** The app's operators, oldest member first. */
export function useOperators(appId: string) {
  return useQuery({
    queryKey: queryKeys.operators.list(appId),
    queryFn: ({ signal }) => api.get<Operator[]>(`${appPath(appId)}/admins`, { signal }),
  });
}
