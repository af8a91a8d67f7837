"use client";

import { useId } from "react";
import type { CatalogProp } from "@/lib/client/leads-types";

/** Extra columns: any custom or event prop, remembered in this browser. */
export function ColumnPicker({
  catalog,
  value,
  onChange,
}: {
  catalog: CatalogProp[];
  value: string[];
  onChange: (next: string[]) => void;
}) {
  const id = useId();
  const choices = catalog.filter((p) => p.kind !== "system");
  return (
    <details className="relative">
      <summary className="inline-flex h-8 cursor-pointer items-center rounded-md px-2.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600">
        Columns{value.length ? ` (+${value.length})` : ""}
      </summary>
      <fieldset className="absolute right-0 z-10 mt-1 max-h-80 w-72 overflow-auto rounded-lg bg-white p-3 shadow-lg ring-1 ring-slate-200">
        <legend className="sr-only">Extra columns</legend>
        {choices.length === 0 && <p className="text-sm text-slate-600">No custom or event properties yet.</p>}
        {choices.map((p) => (
          <label key={p.name} htmlFor={`${id}-${p.name}`} className="flex items-center gap-2 py-1 text-sm">
            <input
              id={`${id}-${p.name}`}
              type="checkbox"
              className="size-4 accent-brand-600"
              checked={value.includes(p.name)}
              onChange={(e) =>
                onChange(
                  e.target.checked ? [...value, p.name].slice(0, 20) : value.filter((n) => n !== p.name),
                )
              }
            />
            {p.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
