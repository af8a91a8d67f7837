/** Heartbeats (`setpresence`) keep a user `online` or `idle`; two minutes without one means `offline`. */
export const PRESENCE_TTL_MS = 2 * 60 * 1000;
export const PRESENCES = ["online", "idle"] as const;
export type Presence = (typeof PRESENCES)[number] | "offline";

/**
 * The user event the messenger's first heartbeat of a session writes (`{url}`): proactive messages and bots trigger
 * on it. The REST API's `setpresence` writes none: a site's own presence calls are not visits.
 */
export const SESSION_START_EVENT = "$session_start";

const isPresence = (s: string): s is Presence =>
  s === "offline" || (PRESENCES as readonly string[]).includes(s);

/**
 * Computed at read time, so a user whose heartbeats stopped reads `offline` at once, whether or not the sweeper has
 * written it yet. A row without `lastHeartbeat` information keeps its stored value.
 */
export function effectivePresence(
  stored: string,
  lastHeartbeat: Date | null | undefined,
  now = Date.now(),
): Presence {
  const known = isPresence(stored) ? stored : "offline";
  if (lastHeartbeat === undefined) return known;
  if (known === "offline" || lastHeartbeat === null) return "offline";
  return now - lastHeartbeat.getTime() > PRESENCE_TTL_MS ? "offline" : known;
}
