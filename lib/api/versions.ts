import { validation } from "./errors";

/** Released versions, oldest first. A request names a major (or a prefix) and gets the newest match. */
export const RELEASED = ["1.0.0", "1.1.0", "2.0.0", "2.1.0"] as const;
export const DEFAULT_MAJOR = 2;

export interface ApiVersion {
  major: number;
  full: string;
}

function parts(v: string): number[] {
  return v.split(".").map((x) => Number(x));
}

/** Resolutions by requested string (every request resolves one; the released set is fixed). */
const resolved = new Map<string | undefined, ApiVersion>();

export function resolveVersion(requested: string | undefined): ApiVersion {
  const hit = resolved.get(requested);
  if (hit) return hit;
  const v = resolveUncached(requested);
  // Bounded: anything may be asked, only a few strings name released versions.
  if (resolved.size < 100) resolved.set(requested, v);
  return v;
}

function resolveUncached(requested: string | undefined): ApiVersion {
  const want = (requested ?? String(DEFAULT_MAJOR)).trim().replace(/^v/i, "");
  if (!/^\d+(\.\d+){0,2}$/.test(want)) {
    throw validation({ version: `Unknown API version "${requested}". Released: ${RELEASED.join(", ")}.` });
  }
  const w = parts(want);
  const match = [...RELEASED].reverse().find((r) => {
    const p = parts(r);
    return w.every((n, i) => p[i] === n);
  });
  if (!match)
    throw validation({ version: `Unknown API version "${requested}". Released: ${RELEASED.join(", ")}.` });
  return { major: parts(match)[0] ?? DEFAULT_MAJOR, full: match };
}
