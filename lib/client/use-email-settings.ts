"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type EmailSettings } from "./settings-types";

export const emailPath = (appId: string) => `${appPath(appId)}/email`;

/** The app's email settings, its address, and how mail goes out and comes in (defaults on first read). */
export function useEmailSettings(appId: string) {
  return useQuery({
    queryKey: queryKeys.email.settings(appId),
    queryFn: ({ signal }) => api.get<EmailSettings>(`${emailPath(appId)}/settings`, { signal }),
  });
}
