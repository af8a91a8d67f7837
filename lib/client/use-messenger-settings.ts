"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath, type MessengerSettings } from "./settings-types";

export const messengerPath = (appId: string) => `${appPath(appId)}/messenger`;

/** The app's messenger settings (the identity secret masked). */
export function useMessengerSettings(appId: string) {
  return useQuery({
    queryKey: queryKeys.messenger.settings(appId),
    queryFn: ({ signal }) => api.get<MessengerSettings>(messengerPath(appId), { signal }),
  });
}
