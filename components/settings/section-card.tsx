import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** A white card with a heading row, as every settings section uses. */
export function SectionCard({
  title,
  titleId,
  description,
  actions,
  children,
  className,
}: {
  title: string;
  titleId?: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={titleId}
      className={cn("rounded-xl border border-slate-200 bg-white shadow-sm", className)}
    >
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-4 sm:px-5">
        <div className="min-w-0">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {description && <p className="mt-0.5 text-sm text-slate-600">{description}</p>}
        </div>
        {actions}
      </div>
      <div className="px-4 py-4 sm:px-5">{children}</div>
    </section>
  );
}
