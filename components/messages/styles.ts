import { cn } from "@/components/ui/cn";

/** The Messages pages' shared classes: a tab of their tab strips, the links drawn as buttons. */

export const tabClass = (selected: boolean) =>
  cn(
    "-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap",
    "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600",
    selected
      ? "border-brand-600 text-brand-700"
      : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
  );

export const primaryLink = cn(
  "inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-medium text-white shadow-sm",
  "hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
);

export const textLink = cn(
  "text-sm font-medium text-brand-700 hover:underline",
  "focus-visible:rounded focus-visible:outline-2 focus-visible:outline-brand-600",
);
