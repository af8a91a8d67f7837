"use client";

import { useEffect, useRef, useState } from "react";
import { isPreviewReady } from "@/messenger/preview-protocol";

/**
 * The messenger's real frame in one of its preview modes (messenger/preview-protocol.ts), embedded by an editor:
 * `message` is posted once the frame says it is ready and again on every change; what else the frame posts goes
 * to `onMessage`. Both sides are the panel's origin, and each checks it.
 */
export function PreviewFrame({
  src,
  message,
  onMessage,
  title,
  className,
  tabIndex,
}: {
  src: string;
  message: object;
  onMessage?: (data: unknown) => void;
  title: string;
  className: string;
  tabIndex?: number;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  }, [onMessage]);

  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const listen = (e: MessageEvent) => {
      if (e.origin !== location.origin || e.source !== el.contentWindow) return;
      if (isPreviewReady(e.data)) setReady(true);
      else handler.current?.(e.data);
    };
    addEventListener("message", listen);
    // Loaded only once the listener is there, so its "ready" cannot come first (the page may be server-rendered).
    el.src = src;
    return () => removeEventListener("message", listen);
  }, [src]);

  useEffect(() => {
    if (ready) frame.current?.contentWindow?.postMessage(message, location.origin);
  }, [ready, message]);

  return <iframe ref={frame} title={title} tabIndex={tabIndex} className={className} />;
}
