import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { cn } from "@/components/ui/cn";
import type { FieldControlProps } from "@/components/ui/field";

/** The editor's textareas, selects and checkboxes, drawn like components/ui/input.tsx. */

const ring = (invalid: boolean) =>
  cn(
    "block w-full rounded-lg bg-white px-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset",
    "focus:ring-2 focus:ring-inset focus:outline-none",
    invalid ? "ring-red-400 focus:ring-red-600" : "ring-slate-300 hover:ring-slate-400 focus:ring-brand-600",
  );

/** A Field's control props, without `invalid` (not a DOM attribute). */
const domProps = ({ invalid: _invalid, ...rest }: FieldControlProps) => rest;

export function TextArea({
  control,
  className,
  ...rest
}: { control: FieldControlProps } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea
      {...domProps(control)}
      {...rest}
      className={cn(ring(control.invalid), "resize-y py-2", className)}
    />
  );
}

export function Select({
  control,
  className,
  ...rest
}: { control: FieldControlProps } & SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...domProps(control)} {...rest} className={cn(ring(control.invalid), "h-10", className)} />;
}

/** A checkbox with its label beside it, and an optional hint under the label. */
export function Check({
  label,
  hint,
  ...rest
}: { label: ReactNode; hint?: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <label className="flex items-start gap-2.5 text-sm text-slate-800">
      <input type="checkbox" className="mt-0.5 size-4 shrink-0" {...rest} />
      <span>
        <span className="font-medium">{label}</span>
        {hint && <span className="block text-slate-600">{hint}</span>}
      </span>
    </label>
  );
}

/** A group of fields with a legend, as the editor's sections are (the rule above is the wrapper's: a legend sits in
 * its fieldset's own border). */
export function Section({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <div className="border-t border-slate-200 pt-5 first:border-t-0 first:pt-0">
      <fieldset>
        <legend className="mb-3 text-sm font-semibold text-slate-900">{legend}</legend>
        <div className="space-y-4">{children}</div>
      </fieldset>
    </div>
  );
}
