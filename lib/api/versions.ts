import type { Config } from "../config/env";
import { tryRuntime } from "../server/runtime";
import { validation } from "./errors";

/** Released versions, oldest first. A request names a major (or a prefix) and gets the newest match. */
export const RELEASED = ["1.0.0", "1.1.0", "2.0.0", "2.1.0", "3.0.0"] as const;
/** The version of a request that names none, unless DEFAULT_API_VERSION says otherwise (lib/config/env.ts). */
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
  // The default is read per call (a setting), so the cache is keyed by what it resolves, not by `undefined`.
  const key = requested ?? defaultVersion();
  const hit = resolved.get(key);
  if (hit) return hit;
  const v = resolveUncached(key);
  // Bounded: anything may be asked, only a few strings name released versions.
  if (resolved.size < 100) resolved.set(key, v);
  return v;
}

/** DEFAULT_API_VERSION; tolerant of runtimes that tests assemble without a config. */
function defaultVersion(): string {
  const config = tryRuntime()?.config as Partial<Config> | undefined;
  return config?.defaultApiVersion ?? String(DEFAULT_MAJOR);
}

function resolveUncached(requested: string): ApiVersion {
  const want = requested.trim().replace(/^v/i, "");
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
