"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

/** Tailwind's `xl`: from this width the visitor's details are a column beside the thread, not a drawer. */
const WIDE = "(min-width: 80rem)";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

interface DrawerProps {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/**
 * The visitor's details: a column on wide screens; below `xl` a modal drawer opened from the header, which takes
 * focus, keeps it inside while open (Tab wraps, Escape or the backdrop close it) and gives it back to its opener.
 */
export function VisitorDrawer({ open, onClose, children }: DrawerProps) {
  const panel = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const root = panel.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        onClose();
      } else if (e.key === "Tab" && root) {
        const list = focusables(root);
        const first = list[0];
        const last = list[list.length - 1];
        if (!first || !last) return;
        const inside = root.contains(document.activeElement);
        if (e.shiftKey && (!inside || document.activeElement === first)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (!inside || document.activeElement === last)) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    // Focus that lands outside (a click behind, a script) comes back in.
    const onFocusIn = (e: FocusEvent) => {
      if (root && e.target instanceof Node && !root.contains(e.target)) closeButton.current?.focus();
    };
    const wide = window.matchMedia(WIDE);
    const onWide = () => wide.matches && onClose();
    window.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocusIn);
    wide.addEventListener("change", onWide);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocusIn);
      wide.removeEventListener("change", onWide);
      if (opener?.isConnected) opener.focus();
    };
  }, [open, onClose]);

  return (
    <>
      {open && (
        <div className="fixed inset-0 z-20 bg-slate-900/30 xl:hidden" aria-hidden="true" onClick={onClose} />
      )}
      <div
        ref={panel}
        role={open ? "dialog" : undefined}
        aria-modal={open ? true : undefined}
        aria-label={open ? "Visitor details" : undefined}
        tabIndex={open ? -1 : undefined}
        className={cn(
          "border-slate-200 outline-none xl:static xl:block xl:w-72 xl:shrink-0 xl:border-l xl:shadow-none",
          open ? "fixed inset-y-0 right-0 z-30 flex w-80 max-w-full flex-col shadow-xl" : "hidden",
        )}
      >
        {open && (
          <div className="flex justify-end border-b border-slate-200 bg-white p-1 xl:hidden">
            <Button ref={closeButton} size="sm" variant="ghost" onClick={onClose}>
              Close details
            </Button>
          </div>
        )}
        <div className="min-h-0 flex-1 xl:h-full">{children}</div>
      </div>
    </>
  );
}
