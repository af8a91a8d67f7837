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

/** Days in a range, both ends included. */
export const rangeDays = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** The range of the same length that ends the day before `from`: what a report's change is measured against. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  return { from: addDays(from, -rangeDays(from, to)), to: addDays(from, -1) };
}
