"use client";

import { useEffect, useState } from "react";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { SearchDialog } from "./search-dialog";

/** The panel's search: a box in the header that opens the search dialog, also on Cmd/Ctrl+K from anywhere. */
export function SearchBox() {
  const { app } = useCurrentApp();
  const [open, setOpen] = useState(false);
  const [mac, setMac] = useState(false);

  useEffect(() => {
    setMac(/Mac|iPhone|iPad/.test(navigator.platform));
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setOpen((o) => !o);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (!app) return null;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Meta+K Control+K"
        className="flex h-9 w-full items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 text-sm text-slate-500 ring-1 ring-slate-200 hover:ring-slate-300 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
        data-testid="search-box"
      >
        <span>Search…</span>
        <kbd className="rounded border border-slate-300 bg-white px-1.5 font-mono text-xs text-slate-600">
          {mac ? "⌘K" : "Ctrl K"}
        </kbd>
      </button>
      {open && <SearchDialog key={String(app.id)} appId={String(app.id)} onClose={() => setOpen(false)} />}
    </>
  );
}
