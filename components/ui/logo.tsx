import { cn } from "./cn";

/** The product's mark: a speech bubble in the brand colour. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "inline-flex size-8 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm",
        className,
      )}
    >
      <svg viewBox="0 0 24 24" className="size-[62%]" fill="currentColor">
        <path d="M7 4h10a3 3 0 0 1 3 3v7a3 3 0 0 1-3 3h-5.5L7 20.5V17a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3Z" />
        <circle cx="9" cy="10.5" r="1.2" className="fill-brand-600" />
        <circle cx="12" cy="10.5" r="1.2" className="fill-brand-600" />
        <circle cx="15" cy="10.5" r="1.2" className="fill-brand-600" />
      </svg>
    </span>
  );
}
