"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogTitle } from "@/components/ui/dialog";
import { INBOX_SHORTCUTS, ROW_SHORTCUTS } from "@/lib/client/inbox/use-inbox-shortcuts";

const KEY_NAME: Record<string, string> = { ArrowDown: "↓", ArrowUp: "↑", " ": "Space" };
const LISTED = [...Object.values(INBOX_SHORTCUTS), ...Object.values(ROW_SHORTCUTS)];

/** The `?` overlay: every Inbox shortcut. Escape, `?` again or the button closes it and gives focus back. */
export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "?") {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <Dialog
      open
      onClose={onClose}
      initialFocus={closeRef}
      className="m-auto w-[calc(100%-2rem)] max-w-sm rounded-xl bg-white p-5 shadow-xl"
      data-testid="shortcuts-overlay"
    >
      <DialogTitle className="text-base font-semibold text-slate-900">Keyboard shortcuts</DialogTitle>
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
    </Dialog>
  );
}
