"use client";

import { useEffect, useRef, useState, type KeyboardEvent } from "react";

/**
 * A button's popover (the notification bell, the Inbox's Team list, the header's "⋯"): open and closed, closed by
 * a press outside it or by Escape, which gives the focus back to the button. `root` wraps button and panel,
 * `onKeyDown` goes on it.
 */
export function usePopover<B extends HTMLElement = HTMLButtonElement>() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<B>(null);

  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || !open) return;
    // Only this popover closes, not a dialog or drawer around it.
    e.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };

  return { open, setOpen, root, button, onKeyDown };
}
