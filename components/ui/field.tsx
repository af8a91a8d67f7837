"use client";

import { useId, type ReactNode } from "react";
import { cn } from "./cn";

/** What a Field passes to its control so the label, hint and error are wired up for assistive technology. */
export interface FieldControlProps {
  id: string;
  invalid: boolean;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

export interface FieldProps {
  label: ReactNode;
  /** The error under the control; also marks it aria-invalid. */
  error?: string | null;
  hint?: ReactNode;
  /** Something at the right of the label row (a "Forgot password?" link, a counter…). */
  labelAside?: ReactNode;
  id?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

export function Field({ label, error, hint, labelAside, id, className, children }: FieldProps) {
  const autoId = useId();
  const controlId = id ?? `field${autoId}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={controlId} className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        {labelAside}
      </div>
      {children({
        id: controlId,
        invalid: !!error,
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : undefined,
      })}
      {error && (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      )}
      {hint && !error && (
        <p id={hintId} className="text-sm text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
