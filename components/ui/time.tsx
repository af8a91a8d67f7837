import { formatDateTime, formatShortTime, isoTime } from "@/lib/client/format";

interface TimeProps {
  /** Unix seconds; null when there is no such moment (a key never used). */
  seconds: number | null;
  /** The list form ("14:05", "Mon", "3 Mar"), with the full date and time as its tooltip. */
  short?: boolean;
  /** What stands in for a missing moment. */
  fallback?: string;
  className?: string;
}

/** A moment as the panel writes it (lib/client/format.ts), inside <time> with its machine-readable form. */
export function Time({ seconds, short = false, fallback = "—", className }: TimeProps) {
  if (seconds === null) return <>{fallback}</>;
  const full = formatDateTime(seconds);
  return (
    <time className={className} dateTime={isoTime(seconds)} title={short ? full : undefined}>
      {short ? formatShortTime(seconds) : full}
    </time>
  );
}
