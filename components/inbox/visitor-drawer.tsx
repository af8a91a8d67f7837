"use client";

import { useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogTitle } from "@/components/ui/dialog";

/** Tailwind's `xl`: from this width the visitor's details are a column beside the thread, not a drawer. */
const WIDE = "(min-width: 80rem)";

function subscribeWide(onChange: () => void) {
  const q = window.matchMedia(WIDE);
  q.addEventListener("change", onChange);
  return () => q.removeEventListener("change", onChange);
}

const isWide = () => window.matchMedia(WIDE).matches;

interface DrawerProps {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/**
 * The visitor's details: a column on wide screens; below `xl` a modal drawer opened from the header (the one
 * dialog primitive: focus kept inside, Escape or the backdrop close it, focus back to its opener). A window widened
 * past `xl` closes the drawer, as the column shows the same details.
 */
export function VisitorDrawer({ open, onClose, children }: DrawerProps) {
  const closeButton = useRef<HTMLButtonElement>(null);
  // The server renders the column: the panel's pages are drawn for wide screens first.
  const wide = useSyncExternalStore(subscribeWide, isWide, () => true);

  useEffect(() => {
    if (open && wide) onClose();
  }, [open, wide, onClose]);

  // Narrower until 2xl, so the thread's header keeps one row at 1280 px.
  if (wide) return <div className="w-64 shrink-0 border-l border-slate-200 2xl:w-72">{children}</div>;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      initialFocus={closeButton}
      className="my-0 mr-0 ml-auto h-dvh max-h-none w-80 max-w-full bg-white shadow-xl"
    >
      <div className="flex h-full flex-col">
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 py-1 pr-1 pl-4">
          <DialogTitle className="text-sm font-semibold text-slate-900">Visitor details</DialogTitle>
          <Button ref={closeButton} size="sm" variant="ghost" onClick={onClose}>
            Close details
          </Button>
        </div>
        <div className="min-h-0 flex-1">{children}</div>
      </div>
    </Dialog>
  );
}
