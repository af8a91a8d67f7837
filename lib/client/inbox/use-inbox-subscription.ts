"use client";

import { useEffect } from "react";
import { useSocket } from "../use-socket";
import { inboxChannels } from "./realtime";

/** Keeps the app's Inbox channels subscribed while the Inbox is open. */
export function useInboxSubscription(appId: string) {
  const { subscribe } = useSocket();
  useEffect(() => subscribe(inboxChannels(appId)), [subscribe, appId]);
}
