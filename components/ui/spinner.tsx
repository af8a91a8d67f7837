import { cn } from "./cn";

export interface SpinnerProps {
  className?: string;
  /** When set, the spinner is announced (role="status"); otherwise it is decorative. */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  const svg = (
    <svg className={cn("size-4 animate-spin", className)} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
  if (!label) return svg;
  return (
    <span role="status" className="inline-flex items-center">
      {svg}
      <span className="sr-only">{label}</span>
    </span>
  );
}
