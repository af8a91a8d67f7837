"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import type { EmailBounce } from "./settings-types";
import { emailPath } from "./use-email-settings";

/** Whether the app stopped emailing an address after a hard bounce (none asked without an address). */
export function useEmailBounce(appId: string, address: string | null | undefined) {
  return useQuery({
    queryKey: queryKeys.email.bounce(appId, address ?? ""),
    queryFn: ({ signal }) =>
      api.get<EmailBounce>(`${emailPath(appId)}/bounces?address=${encodeURIComponent(address ?? "")}`, {
        signal,
      }),
    enabled: !!appId && !!address,
    staleTime: 60_000,
  });
}
