"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { INBOX_SHORTCUTS, ROW_SHORTCUTS } from "@/lib/client/inbox/use-inbox-shortcuts";

const KEY_NAME: Record<string, string> = { ArrowDown: "↓", ArrowUp: "↑", " ": "Space" };
const LISTED = [...Object.values(INBOX_SHORTCUTS), ...Object.values(ROW_SHORTCUTS)];

/** The `?` overlay: every Inbox shortcut. Escape or the button closes it and gives focus back. */
export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" || e.key === "?") {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      before?.focus?.();
    };
  }, [onClose]);
  return (
    <div
      className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40 p-4"
      onClick={(e) => e.target === e.currentTarget && onClose()}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        className="w-full max-w-sm rounded-xl bg-white p-5 shadow-xl"
        data-testid="shortcuts-overlay"
      >
        <h2 id="shortcuts-title" className="text-base font-semibold text-slate-900">
          Keyboard shortcuts
        </h2>
        <dl className="mt-3 space-y-1.5 text-sm">
          {LISTED.map((s) => (
            <div key={s.label} className="flex items-center justify-between gap-4">
              <dt className="text-slate-700">{s.label}</dt>
              <dd className="flex gap-1">
                {s.keys.map((k) => (
                  <kbd
                    key={k}
                    className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs text-slate-800"
                  >
                    {KEY_NAME[k] ?? k}
                  </kbd>
                ))}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-xs text-slate-600">
          Shortcuts are off while you type in a field (Escape leaves it).
        </p>
        <Button ref={closeRef} className="mt-4 w-full" variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}
