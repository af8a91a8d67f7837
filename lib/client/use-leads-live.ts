"use client";

import { useEffect } from "react";
import { useSocket } from "./use-socket";

/**
 * Live updates for the leads pages: presence of the app's users, and with a user, that user's props. The cache
 * patches live in leads-realtime.ts (routed by realtime-dispatch.ts).
 */
export function useLeadsLive(appId: string, userId?: string) {
  const { subscribe } = useSocket();
  useEffect(() => {
    const channels = [`user_presence_changed.${appId}`];
    if (userId) channels.push(`user_props_changed.${appId}.${userId}`);
    return subscribe(channels);
  }, [appId, userId, subscribe]);
}
