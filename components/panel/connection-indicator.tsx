"use client";

import { useEffect, useState } from "react";
import { cn } from "@/components/ui/cn";
import type { SocketStatus } from "@/lib/client/use-socket";

const LABELS: Record<SocketStatus, string> = {
  idle: "Offline",
  connecting: "Connecting…",
  connected: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline",
  unauthorized: "Offline",
  throttled: "Delayed",
};

const DOTS: Record<SocketStatus, string> = {
  idle: "bg-slate-400",
  connecting: "bg-amber-500 animate-pulse",
  connected: "bg-emerald-500",
  reconnecting: "bg-amber-500 animate-pulse",
  offline: "bg-red-500",
  unauthorized: "bg-red-500",
  throttled: "bg-amber-500",
};

const TITLES: Record<SocketStatus, string> = {
  idle: "Real-time updates are off",
  connecting: "Connecting to real-time updates",
  connected: "Real-time updates are on: new messages appear as they arrive",
  reconnecting: "Connection lost, reconnecting",
  offline: "Real-time updates are unavailable; retrying",
  unauthorized: "Your session has ended",
  throttled: "The server is busy catching up this window: live updates resume shortly (retrying)",
};

/** Not live for this long: say so plainly, rather than "Connecting…" for ever. */
const OFF_AFTER_MS = 10_000;
const NOT_LIVE = new Set<SocketStatus>(["connecting", "reconnecting", "offline"]);
const OFF_TITLE =
  "Live updates are off: new messages and changes appear only when you reload the page. Still retrying.";

function useOffForLong(status: SocketStatus): boolean {
  const notLive = NOT_LIVE.has(status);
  const [off, setOff] = useState(false);
  useEffect(() => {
    if (!notLive) return;
    const t = setTimeout(() => setOff(true), OFF_AFTER_MS);
    return () => {
      clearTimeout(t);
      setOff(false);
    };
  }, [notLive]);
  return notLive && off;
}

export function ConnectionIndicator({ status, className }: { status: SocketStatus; className?: string }) {
  const off = useOffForLong(status);
  return (
    <div
      data-testid="connection-status"
      data-state={status}
      role="status"
      title={off ? OFF_TITLE : TITLES[status]}
      className={cn(
        "inline-flex items-center gap-2 text-xs font-medium text-slate-600",
        off && "rounded-full bg-amber-50 px-2 py-0.5 text-amber-900 ring-1 ring-amber-300",
        className,
      )}
    >
      <span className="relative flex size-2.5" aria-hidden="true">
        {status === "connected" && (
          <span className="absolute inline-flex size-full rounded-full bg-emerald-400 opacity-60 motion-safe:animate-ping [animation-iteration-count:2]" />
        )}
        <span className={cn("relative inline-flex size-2.5 rounded-full", DOTS[status])} />
      </span>
      <span>{off ? "Live updates off" : LABELS[status]}</span>
      {off && <span className="sr-only">. {OFF_TITLE}</span>}
    </div>
  );
}
