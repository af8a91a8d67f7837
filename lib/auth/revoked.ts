import { processWide } from "../config/process-wide";
import { ACCESS_TTL_SECONDS } from "./jwt-config";

/**
 * Access tokens are verified without a database read, so revoking what one names (an API key, an operator, a
 * refresh family...) must reach every instance's memory: this set, fed by the revocations every instance reads
 * from the event log (lib/auth/revocations.ts). An entry outlives every token it can stop, then goes.
 */
const KEEP_MS = (ACCESS_TTL_SECONDS + 60) * 1000;

const revoked = processWide("jwt.revoked", () => new Map<string, number>());

/**
 * Subjects (`key:<id>`, `admin:<id>`, `visitor:<id>`), families (`fam:<id>`) and operator logins
 * (`sid:<session id>`) whose tokens issued up to `at` no longer hold.
 */
export function noteRevoked(name: string, at: number = Date.now()): void {
  const now = Date.now();
  if (revoked.size > 1000) for (const [k, t] of revoked) if (t + KEEP_MS < now) revoked.delete(k);
  revoked.set(name, Math.max(at, revoked.get(name) ?? 0));
}

/** A token issued at `iatSeconds` (whole seconds: a token of the revoking second counts as revoked). */
export function isRevoked(names: readonly string[], iatSeconds: number): boolean {
  for (const n of names) {
    const at = revoked.get(n);
    if (at !== undefined && iatSeconds * 1000 <= at) return true;
  }
  return false;
}
