"use client";

import { Button } from "@/components/ui/button";

export const MAX_BUTTONS = 20;

/**
 * The quick-reply buttons of the next reply: one text field per button. The panel sends labels only; it says so,
 * and where a button's meta_data can be set instead (the API), rather than leave an operator guessing.
 */
export function QuickReplyEditor({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  return (
    <fieldset
      className="rounded-lg border border-slate-200 p-2"
      data-testid="quick-reply-editor"
      aria-describedby="qr-what"
    >
      <legend className="px-1 text-xs font-medium text-slate-700">Quick-reply buttons</legend>
      <p id="qr-what" className="mb-1.5 px-1 text-xs text-slate-600">
        A click sends the button&apos;s text as the visitor&apos;s reply. Data for your own systems on a
        button (<code>meta_data</code>) can be set through the API&apos;s reply endpoint.
      </p>
      <ul className="flex flex-col gap-1.5">
        {value.map((b, i) => (
          <li key={i} className="flex items-center gap-1.5">
            <label className="sr-only" htmlFor={`qr-${i}`}>
              Button {i + 1}
            </label>
            <input
              id={`qr-${i}`}
              value={b}
              maxLength={300}
              placeholder={`Button ${i + 1}`}
              onChange={(e) => onChange(value.map((x, j) => (j === i ? e.target.value : x)))}
              className="h-8 min-w-0 flex-1 rounded-md px-2 text-sm ring-1 ring-slate-300 ring-inset focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
            />
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove button ${i + 1}`}
              onClick={() => onChange(value.filter((_, j) => j !== i))}
            >
              ✕
            </Button>
          </li>
        ))}
      </ul>
      <Button
        size="sm"
        variant="secondary"
        className="mt-1.5"
        disabled={value.length >= MAX_BUTTONS}
        onClick={() => onChange([...value, ""])}
      >
        Add a button
      </Button>
    </fieldset>
  );
}
