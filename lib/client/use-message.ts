"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { messagePath, type Message } from "./messages-types";
import { queryKeys } from "./query-keys";

/** One message, as the editor starts from it. */
export function useMessage(appId: string, messageId: string) {
  return useQuery({
    queryKey: queryKeys.messages.detail(appId, messageId),
    queryFn: ({ signal }) => api.get<Message>(messagePath(appId, messageId), { signal }),
  });
}
