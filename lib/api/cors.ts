import type { Actor } from "../auth/context";
import { IDEMPOTENCY_HEADER } from "./idempotency";

/**
 * Cross-origin calls, for the endpoints that declare a policy (`cors` on the endpoint: the messenger's, called
 * from the sites it runs on); every other endpoint answers without CORS headers, so browsers keep other sites
 * from reading them. Never with credentials: these endpoints take a bearer token, not cookies.
 *
 * The policy says whether an actual request's origin may read the answer; it sees the authenticated actor (when
 * authentication got that far) and the raw parameters, since which app's origins apply depends on them.
 */
export type CorsPolicy = (
  origin: string,
  request: { actor: Actor | undefined; input: Record<string, unknown> },
) => Promise<boolean>;

const ALLOW_HEADERS = ["Authorization", "Content-Type", IDEMPOTENCY_HEADER].join(", ");
/** What the caller's script may read besides the simple headers: the waits and positions it acts on. */
const EXPOSE_HEADERS = ["Retry-After", "X-Request-Id", "X-API-Version", "X-Event-Position"].join(", ");
const MAX_AGE_SECONDS = 600;

/**
 * A preflight's answer: the origin echoed (the request's app is unknown before the request itself, which says
 * no more than what browsers may try), the path's methods and the headers the endpoints read.
 */
export function preflightHeaders(origin: string, allow: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": allow,
    "Access-Control-Allow-Headers": ALLOW_HEADERS,
    "Access-Control-Max-Age": String(MAX_AGE_SECONDS),
    Vary: "Origin",
  };
}

/** Sets an actual answer's CORS headers, when its origin is allowed; `Vary` either way (the answer depends on it). */
export async function applyCors(
  res: Response,
  req: Request,
  policy: CorsPolicy,
  request: { actor: Actor | undefined; input: Record<string, unknown> },
): Promise<Response> {
  const origin = req.headers.get("origin");
  if (origin === null) return res;
  let allowed = false;
  try {
    allowed = await policy(origin, request);
  } catch {
    // An answer without CORS headers is the safe side of a failed check.
  }
  res.headers.append("Vary", "Origin");
  if (allowed) {
    res.headers.set("Access-Control-Allow-Origin", origin);
    res.headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
  }
  return res;
}
