"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * A danger action that asks first: the button turns into "Are you sure?" with Confirm and Cancel in place (focus
 * moves to Confirm, Escape or Cancel goes back).
 */
export function ConfirmAction({
  label,
  confirmLabel,
  question,
  onConfirm,
  pending,
  disabled,
  accessibleName,
}: {
  label: string;
  confirmLabel: string;
  question: string;
  onConfirm: () => void;
  pending?: boolean;
  disabled?: boolean;
  /** A fuller name for the first button (e.g. "Revoke key CI"). */
  accessibleName?: string;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) triggerRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <Button
        ref={triggerRef}
        variant="secondary"
        size="sm"
        onClick={() => setAsking(true)}
        disabled={disabled}
        loading={pending}
        aria-label={accessibleName}
        className="text-red-700! hover:bg-red-50"
      >
        {label}
      </Button>
    );
  }
  return (
    <div
      role="group"
      aria-label={question}
      className="flex flex-wrap items-center gap-2"
      onKeyDown={(e) => {
        if (e.key === "Escape") setAsking(false);
      }}
    >
      <span className="text-sm text-slate-700">{question}</span>
      <Button
        ref={confirmRef}
        variant="danger"
        size="sm"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </div>
  );
}
