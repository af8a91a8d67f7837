/** Seconds since the epoch as a short local date and time; "Never" for null. */
export function formatTime(seconds: number | null | undefined, never = "Never"): string {
  if (seconds === null || seconds === undefined) return never;
  return new Date(seconds * 1000).toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

export function isoTime(seconds: number | null | undefined): string | undefined {
  return seconds === null || seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();
}
