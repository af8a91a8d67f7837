"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { onVisitorMessage } from "./visitor-messages";

const STORAGE_KEY = "relay.inbox.alerts";

function stored(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === "1";
  } catch {
    return false;
  }
}

function beep(ctx: AudioContext): void {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = 880;
  gain.gain.setValueAtTime(0.001, ctx.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + 0.3);
}

/** The page's audio context, created or resumed; call it from a user gesture, the only time browsers allow it. */
function readyAudio(ctx: AudioContext | null): AudioContext | null {
  if (typeof AudioContext === "undefined") return null;
  const out = ctx ?? new AudioContext();
  if (out.state === "suspended") void out.resume().catch(() => undefined);
  return out;
}

export interface InboxAlerts {
  /** Visitor messages that arrived while the tab was in the background. */
  unseen: number;
  /** Desktop notification and sound are on (browsers allow them only after a click). */
  enabled: boolean;
  permission: NotificationPermission | "unsupported";
  enable: () => Promise<void>;
  disable: () => void;
}

/**
 * New visitor messages: counts them in the tab's title while the tab is hidden, and, once enabled by a click,
 * shows a desktop notification and plays a short sound.
 */
export function useInboxNotifications(describe: (conversationId: string) => string): InboxAlerts {
  const [unseen, setUnseen] = useState(0);
  const [enabled, setEnabled] = useState(false);
  const [permission, setPermission] = useState<InboxAlerts["permission"]>("unsupported");
  const audio = useRef<AudioContext | null>(null);
  const describeRef = useRef(describe);
  const enabledRef = useRef(false);

  useEffect(() => {
    describeRef.current = describe;
  }, [describe]);

  useEffect(() => {
    const on = stored();
    enabledRef.current = on;
    setEnabled(on);
    setPermission(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
    if (!on) return;
    // Turned on in an earlier visit: the sound may start only from a gesture on this page, so the first one
    // (any click or key) makes the audio ready.
    const arm = () => {
      if (!enabledRef.current) return;
      audio.current = readyAudio(audio.current);
      if (audio.current?.state === "running") disarm();
    };
    const disarm = () => {
      window.removeEventListener("pointerdown", arm, true);
      window.removeEventListener("keydown", arm, true);
    };
    window.addEventListener("pointerdown", arm, true);
    window.addEventListener("keydown", arm, true);
    return disarm;
  }, []);

  useEffect(() => {
    const seen = () => {
      if (document.visibilityState === "visible") setUnseen(0);
    };
    document.addEventListener("visibilitychange", seen);
    window.addEventListener("focus", seen);
    const off = onVisitorMessage((part) => {
      if (document.visibilityState === "visible" && document.hasFocus()) return;
      setUnseen((n) => n + 1);
      if (!enabledRef.current) return;
      if (typeof Notification !== "undefined" && Notification.permission === "granted") {
        const n = new Notification(describeRef.current(String(part.conversation)), {
          body: part.body.slice(0, 140) || "Sent an attachment",
          tag: `conversation-${part.conversation}`,
        });
        n.onclick = () => window.focus();
      }
      if (audio.current) beep(audio.current);
    });
    return () => {
      off();
      document.removeEventListener("visibilitychange", seen);
      window.removeEventListener("focus", seen);
    };
  }, []);

  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, "");
    document.title = unseen > 0 ? `(${unseen}) ${base}` : base;
  }, [unseen]);

  const enable = useCallback(async () => {
    // Both need the click that calls this: browsers refuse sound and permission prompts without one.
    audio.current = readyAudio(audio.current);
    if (typeof Notification !== "undefined" && Notification.permission === "default") {
      setPermission(await Notification.requestPermission());
    }
    enabledRef.current = true;
    setEnabled(true);
    try {
      window.localStorage.setItem(STORAGE_KEY, "1");
    } catch {
      // private mode: on for this page only
    }
  }, []);

  const disable = useCallback(() => {
    enabledRef.current = false;
    setEnabled(false);
    try {
      window.localStorage.removeItem(STORAGE_KEY);
    } catch {
      // nothing stored
    }
  }, []);

  return { unseen, enabled, permission, enable, disable };
}
