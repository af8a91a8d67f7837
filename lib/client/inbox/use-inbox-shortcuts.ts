"use client";

import { useEffect, useRef } from "react";

export interface Shortcut {
  keys: string[];
  label: string;
}

/** What the `?` overlay lists; the same keys drive useInboxShortcuts. */
export const INBOX_SHORTCUTS = {
  next: { keys: ["j", "ArrowDown"], label: "Next conversation" },
  previous: { keys: ["k", "ArrowUp"], label: "Previous conversation" },
  reply: { keys: ["r"], label: "Write a reply" },
  note: { keys: ["n"], label: "Write a note (operators only)" },
  close: { keys: ["e"], label: "Close the conversation" },
  assignToMe: { keys: ["a"], label: "Assign to me" },
  help: { keys: ["?"], label: "Show these shortcuts" },
} satisfies Record<string, Shortcut>;

/**
 * Keys the focused list row answers itself (components/inbox/conversation-row.tsx), not the window: Space must
 * still scroll or press a button elsewhere. The overlay lists them after INBOX_SHORTCUTS.
 */
export const ROW_SHORTCUTS = {
  check: { keys: ["x", " "], label: "Select the focused conversation" },
} satisfies Record<string, Shortcut>;

export type ShortcutName = keyof typeof INBOX_SHORTCUTS;

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
}

/**
 * The Inbox's single-key shortcuts. They never fire while the operator types in a field, with a modifier key held,
 * or while a dialog is open (`disabled`).
 */
export function useInboxShortcuts(handlers: Record<ShortcutName, () => void>, disabled: boolean) {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  }, [handlers]);
  useEffect(() => {
    if (disabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (typingInto(e.target)) return;
      const name = (Object.keys(INBOX_SHORTCUTS) as ShortcutName[]).find((n) =>
        INBOX_SHORTCUTS[n].keys.includes(e.key),
      );
      if (!name) return;
      e.preventDefault();
      ref.current[name]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [disabled]);
}
