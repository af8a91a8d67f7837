import type { InputHTMLAttributes, Ref } from "react";
import { cn } from "./cn";

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/**
 * Whether `className` sets a utility of this prefix (`w-40`, `md:w-48`). cn() only joins, and Tailwind emits `.w-40`
 * before `.w-full` (`.h-8` before `.h-10`), so a caller's size would lose to the default: the default is left out.
 */
const sets = (className: string | undefined, prefix: "w" | "h") =>
  new RegExp(`(^|\\s)([\\w-]+:)*${prefix}-`).test(className ?? "");

export function Input({ invalid, className, ...rest }: InputProps) {
  return (
    <input
      aria-invalid={invalid || rest["aria-invalid"] || undefined}
      className={cn(
        !sets(className, "h") && "h-10",
        !sets(className, "w") && "w-full",
        "block rounded-lg bg-white px-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset transition-shadow",
        "placeholder:text-slate-400",
        "focus:outline-none focus-visible:outline-none focus:ring-2 focus:ring-inset",
        "disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500",
        invalid
          ? "ring-red-400 focus:ring-red-600"
          : "ring-slate-300 hover:ring-slate-400 focus:ring-brand-600 focus:hover:ring-brand-600",
        className,
      )}
      {...rest}
    />
  );
}
