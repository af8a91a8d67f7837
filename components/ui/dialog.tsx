"use client";

import {
  createContext,
  useContext,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from "react";
import { cn } from "./cn";

const TitleId = createContext<string | undefined>(undefined);

const CANDIDATES =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), summary, [contenteditable="true"], [tabindex]';

/** What Tab reaches inside `root`, in order (the wrap needs the first and the last). */
function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(CANDIDATES)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && !el.closest("[inert]"),
  );
}

interface DialogProps extends Omit<HTMLAttributes<HTMLDialogElement>, "open" | "onClose" | "onCancel"> {
  open: boolean;
  /** Escape, a click on the backdrop, or the caller's own close button: the caller sets `open` to false. */
  onClose: () => void;
  /** What takes focus on open; else the first control inside. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Must hold a <DialogTitle>: the dialog's accessible name. */
  children: ReactNode;
}

/**
 * The panel's one modal dialog, on the native <dialog> and showModal(): the browser puts it in the top layer and
 * makes the page behind it inert (no clicks, no focus, hidden from screen readers). Added here: focus goes to
 * `initialFocus` (or the first control), Tab and Shift+Tab wrap inside rather than leaving for the browser's
 * toolbar, Escape and the backdrop call `onClose`, and focus goes back to the opener when it closes or unmounts.
 * `className` places, sizes and paints the box; Tailwind's reset zeroes the browser's margin (`m-auto` centres it)
 * and padding.
 */
export function Dialog({ open, onClose, initialFocus, className, children, ...rest }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const pressedOnBackdrop = useRef(false);
  const close = useEffectEvent(() => onClose());
  const focusFirst = useEffectEvent((d: HTMLDialogElement) =>
    (initialFocus?.current ?? tabbables(d)[0] ?? d).focus(),
  );

  // Layout effect: the dialog is modal before the first paint, so nothing behind it flashes as reachable.
  useLayoutEffect(() => {
    const d = ref.current;
    if (!open || !d) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    focusFirst(d);
    // The close request the browser makes itself (Escape with focus outside a control, a phone's Back gesture).
    const onCancel = (e: Event) => {
      e.preventDefault();
      close();
    };
    // Chrome may skip a cancelable `cancel` and close the dialog at once: the caller still hears of it.
    const onNativeClose = () => close();
    const onTab = (e: globalThis.KeyboardEvent) => {
      if (e.key !== "Tab") return;
      const list = tabbables(d);
      const first = list[0];
      const last = list[list.length - 1];
      if (!first || !last) {
        e.preventDefault();
        return;
      }
      const at = document.activeElement;
      const inside = at instanceof Node && d.contains(at) && at !== d;
      if (e.shiftKey && (!inside || at === first)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (!inside || at === last)) {
        e.preventDefault();
        first.focus();
      }
    };
    d.addEventListener("cancel", onCancel);
    d.addEventListener("close", onNativeClose);
    document.addEventListener("keydown", onTab, true);
    return () => {
      d.removeEventListener("cancel", onCancel);
      d.removeEventListener("close", onNativeClose);
      document.removeEventListener("keydown", onTab, true);
      if (d.open) d.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    rest.onKeyDown?.(e);
    // A control that uses Escape itself (a confirmation, a clearing field) prevents it first.
    if (e.key === "Escape" && !e.defaultPrevented) {
      e.preventDefault();
      onClose();
    }
  };

  return (
    <TitleId value={titleId}>
      <dialog
        {...rest}
        ref={ref}
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        // Only a press that starts and ends on the backdrop closes: a text selection dragged out of the box does not.
        onMouseDown={(e) => {
          pressedOnBackdrop.current = e.target === e.currentTarget;
        }}
        onClick={(e) => {
          if (pressedOnBackdrop.current && e.target === e.currentTarget) onClose();
        }}
        className={cn("text-slate-900 outline-none backdrop:bg-slate-900/40", className)}
      >
        {children}
      </dialog>
    </TitleId>
  );
}

/** The dialog's heading, and so its name (`aria-labelledby`); `sr-only` in its class hides it from sight only. */
export function DialogTitle({ className, children }: { className?: string; children: ReactNode }) {
  const id = useContext(TitleId);
  return (
    <h2 id={id} className={className}>
      {children}
    </h2>
  );
}
