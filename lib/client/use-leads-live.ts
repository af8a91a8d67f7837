"use client";

import { useEffect } from "react";
import { appChannel, userChannel } from "@/lib/contract/socket";
import { useSocket } from "./use-socket";

/**
 * Live updates for the leads pages: presence of the app's users, and with a user, that user's props. The cache
 * patches live in leads-realtime.ts (routed by realtime-dispatch.ts).
 */
export function useLeadsLive(appId: string, userId?: string) {
  const { subscribe } = useSocket();
  useEffect(() => {
    // Not known yet (the card's user still loading): a channel without its app would only be refused.
    if (!appId) return;
    const channels: string[] = [appChannel("user_presence_changed", appId)];
    if (userId) channels.push(userChannel("user_props_changed", appId, userId));
    return subscribe(channels);
  }, [appId, userId, subscribe]);
}
