import type { IncomingMessage, ServerResponse } from "node:http";
import type { Actor } from "../auth/context";
import { IDEMPOTENCY_HEADER } from "./idempotency";
import { lingerIfUnread } from "./linger";
import type { ApiRequest } from "./api-request";
import type { Served } from "./answer";

/**
 * Cross-origin calls, for the endpoints that declare a policy (`cors` on the endpoint: the messenger's, called
 * from the sites it runs on); every other endpoint answers without CORS headers, so browsers keep other sites
 * from reading them. Never with credentials: these endpoints take a bearer token, not cookies.
 *
 * The policy says whether an actual request's origin may read the answer; it sees the authenticated actor (when
 * authentication got that far) and the raw parameters, since which app's origins apply depends on them.
 */
export type CorsPolicy = (origin: string, request: CorsSeen) => Promise<boolean>;

/** What a request was found to be, for the answer's CORS check. */
export interface CorsSeen {
  actor: Actor | undefined;
  input: Record<string, unknown>;
}

const ALLOW_HEADERS = ["Authorization", "Content-Type", IDEMPOTENCY_HEADER].join(", ");
/** What the caller's script may read besides the simple headers: the waits and positions it acts on. */
const EXPOSE_HEADERS = ["Retry-After", "X-Request-Id", "X-API-Version", "X-Event-Position"].join(", ");
const MAX_AGE_SECONDS = 600;

/**
 * A preflight's answer: the origin echoed (the request's app is unknown before the request itself, which says
 * no more than what browsers may try), the path's methods and the headers the endpoints read.
 */
function preflightHeaders(origin: string, allow: string): Record<string, string> {
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
  res: Served,
  req: ApiRequest,
  policy: CorsPolicy,
  request: CorsSeen,
): Promise<Served> {
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

/** A catalog path as OPTIONS sees it: its methods and whether an endpoint of it declares cross-origin calls. */
export interface OptionsTarget {
  allow: string;
  cors: boolean;
}

/**
 * OPTIONS: the path's methods, and a CORS preflight's answer where an endpoint of the path declares cross-origin
 * calls; elsewhere no CORS header, so browsers keep other sites from calling.
 */
export function optionsHeaders(
  target: OptionsTarget,
  origin: string | null | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { Allow: target.allow };
  if (origin && target.cors) Object.assign(headers, preflightHeaders(origin, target.allow));
  return headers;
}

/**
 * A preflight of a cross-origin path, answered by the server at once (lib/api/direct.ts); false for any other
 * OPTIONS, which goes to Next and is answered the same (optionsHeaders).
 */
export function servePreflight(
  req: IncomingMessage,
  res: ServerResponse,
  target: OptionsTarget | undefined,
): boolean {
  if (typeof req.headers.origin !== "string" || !target?.cors) return false;
  lingerIfUnread(req, res);
  res.writeHead(204, optionsHeaders(target, req.headers.origin));
  res.end();
  return true;
}
