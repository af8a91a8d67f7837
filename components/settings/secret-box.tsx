"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { copyAnnouncement, useCopy } from "./use-copy";

/** A read-only, selectable box with a Copy button, for a token or secret shown once. */
export function SecretBox({
  label,
  value,
  note,
  testId,
  autoFocus,
}: {
  label: string;
  value: string;
  note?: ReactNode;
  testId?: string;
  autoFocus?: boolean;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);
  const { copied, copy } = useCopy(value, () => inputRef.current?.select());

  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-3">
      <label className="block text-sm font-medium text-slate-900" htmlFor={`${testId ?? "secret"}-value`}>
        {label}
      </label>
      <div className="mt-1.5 flex flex-col gap-2 sm:flex-row">
        <input
          ref={inputRef}
          id={`${testId ?? "secret"}-value`}
          readOnly
          value={value}
          data-testid={testId}
          onFocus={(e) => e.currentTarget.select()}
          className="h-10 min-w-0 flex-1 rounded-lg bg-white px-3 font-mono text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none"
        />
        <Button variant="secondary" onClick={() => void copy()}>
          {copied === "yes" ? "Copied" : "Copy"}
        </Button>
      </div>
      <p aria-live="polite" className="sr-only">
        {copyAnnouncement(copied)}
      </p>
      {note && <p className="mt-2 text-sm text-amber-900">{note}</p>}
    </div>
  );
}
