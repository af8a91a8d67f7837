"use client";

import { useEffect } from "react";
import { api } from "./api";
import { appPath } from "./settings-types";

const PING_EVERY_MS = 60_000;
const USE_EVENTS = ["pointerdown", "keydown", "mousemove", "wheel", "touchstart"] as const;

/**
 * Tells the server the operator is using the panel: once a minute while the tab is visible and was used (a key, a
 * pointer) since the last ping, so that the idle sweep leaves them Available. The server coalesces the writes too.
 */
export function useActivityPing(appId: string | undefined) {
  useEffect(() => {
    if (!appId) return;
    let used = true;
    const mark = () => {
      used = true;
    };
    const ping = () => {
      if (document.visibilityState !== "visible" || !used) return;
      used = false;
      // A lost ping is retried by the next one; nothing to show the operator.
      api.post(`${appPath(appId)}/activity`, {}).catch(() => undefined);
    };
    for (const e of USE_EVENTS) window.addEventListener(e, mark, { passive: true });
    document.addEventListener("visibilitychange", ping);
    ping();
    const timer = setInterval(ping, PING_EVERY_MS);
    return () => {
      clearInterval(timer);
      for (const e of USE_EVENTS) window.removeEventListener(e, mark);
      document.removeEventListener("visibilitychange", ping);
    };
  }, [appId]);
}
