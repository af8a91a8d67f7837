"use client";

import { useId } from "react";

/** A fieldset of checkboxes with a legend; `value` is the checked options. */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
  error,
  describe,
  name,
}: {
  legend: string;
  options: readonly T[];
  value: readonly T[];
  onChange: (next: T[]) => void;
  error?: string | null;
  describe?: (option: T) => string | undefined;
  name: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const allChecked = options.every((o) => value.includes(o));
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <div className="flex items-baseline justify-between gap-3">
        <legend className="text-sm font-medium text-slate-800">{legend}</legend>
        <button
          type="button"
          className="rounded text-xs font-medium text-brand-700 hover:underline"
          onClick={() => onChange(allChecked ? [] : [...options])}
        >
          {allChecked ? "Clear all" : "Select all"}
        </button>
      </div>
      <div className="mt-2 grid gap-x-4 gap-y-1.5 sm:grid-cols-2">
        {options.map((option) => {
          const checked = value.includes(option);
          const hint = describe?.(option);
          return (
            <label key={option} className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                name={name}
                value={option}
                checked={checked}
                onChange={(e) =>
                  onChange(
                    e.target.checked
                      ? options.filter((o) => o === option || value.includes(o))
                      : value.filter((o) => o !== option),
                  )
                }
                className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
              />
              <span className="min-w-0">
                <span className="font-mono text-[13px]">{option}</span>
                {hint && <span className="block text-xs text-slate-500">{hint}</span>}
              </span>
            </label>
          );
        })}
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
