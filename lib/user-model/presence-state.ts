/** Heartbeats (`setpresence`) keep a user `online` or `idle`; two minutes without one means `offline`. */
export const PRESENCE_TTL_MS = 2 * 60 * 1000;
export const PRESENCES = ["online", "idle"] as const;
export type Presence = (typeof PRESENCES)[number] | "offline";

/**
 * Computed at read time, so a user whose heartbeats stopped reads `offline` at once, whether or not the sweeper has
 * written it yet. A row without `lastHeartbeat` information keeps its stored value.
 */
export function effectivePresence(
  stored: string,
  lastHeartbeat: Date | null | undefined,
  now = Date.now(),
): string {
  if (lastHeartbeat === undefined) return stored;
  if (stored === "offline" || lastHeartbeat === null) return "offline";
  return now - lastHeartbeat.getTime() > PRESENCE_TTL_MS ? "offline" : stored;
}
