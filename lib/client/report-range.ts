import { isoDay } from "./format";

/** The Reports page's date range: presets end today in the app's time zone. */
export const PRESETS = [
  { id: "7d", label: "Last 7 days", days: 7 },
  { id: "30d", label: "Last 30 days", days: 30 },
  { id: "90d", label: "Last 90 days", days: 90 },
  { id: "12m", label: "Last 12 months", days: 365 },
] as const;
export type PresetId = (typeof PRESETS)[number]["id"] | "custom";

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export function presetRange(id: Exclude<PresetId, "custom">, tz: string, now = new Date()) {
  const to = isoDay(now, tz);
  const days = PRESETS.find((p) => p.id === id)!.days;
  return { from: addDays(to, -(days - 1)), to };
}
