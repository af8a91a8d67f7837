"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { messagesPath, type Message, type MessagesView } from "./messages-types";
import { queryKeys } from "./query-keys";

/** The app's messages, newest first: the live ones (active and paused) or the archived ones, with their figures. */
export function useMessages(appId: string, view: MessagesView) {
  return useQuery({
    queryKey: queryKeys.messages.list(appId, view),
    queryFn: ({ signal }) =>
      api.get<Message[]>(messagesPath(appId), {
        query: view === "archived" ? { status: "archived" } : {},
        signal,
      }),
  });
}
