import { cleanFilter, countConditions, EMPTY_FILTER, isGroup } from "@/lib/client/lead-filters";
import type { FilterGroup, FilterNode } from "@/lib/leads/filter-grammar";

/**
 * An audience (bots, proactive messages) held as the Leads filter builder's value, and its way to and from the
 * API's `audience`: the leads filter grammar, null for everyone.
 */

/** The builder's value for an `audience` read back from the API; anything else (null included) is everyone. */
export function audienceOf(raw: unknown): FilterGroup {
  if (isGroup(raw)) return raw;
  // The API also takes a bare list as an `and` group.
  if (Array.isArray(raw)) return { type: "and", filters: raw.filter((n): n is FilterNode => !!n) };
  return EMPTY_FILTER;
}

/** Why an audience is not sent: the builder's cleaning would drop a condition, so the saved audience would be wider
 * than the one on screen, with no error of the server's to show it. */
export const INCOMPLETE_AUDIENCE = "give every condition a value, or remove the conditions left without one";

export type AudienceWrite = { ok: true; audience: FilterGroup | null } | { ok: false; error: string };

/** The API's `audience` for the builder's value: null when it has no condition. */
export function audienceToWrite(g: FilterGroup): AudienceWrite {
  const audience = cleanFilter(g);
  if (countConditions(audience) < countConditions(g)) return { ok: false, error: INCOMPLETE_AUDIENCE };
  return { ok: true, audience: audience.filters.length ? audience : null };
}
