import crypto from "node:crypto";
import type { ApiRequest } from "./api-request";
import { errorResponse } from "./envelope";
import type { Endpoint, Method, RouteContext } from "./endpoint";
import { versionHeaders } from "./endpoint-versions";
import { ApiError } from "./errors";

type Handler = (req: ApiRequest, route: RouteContext) => Promise<Response>;
const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The handlers of one catalog path (the endpoints sharing it), by method, for the router's match table
 * (lib/api/direct.ts): every other method answers a 405 in the envelope with the `Allow` header (Next's own 405
 * has neither).
 */
export function routes(...endpoints: Endpoint[]): Record<Method, Handler> {
  const byMethod = new Map(endpoints.map((e) => [e.spec.method, e]));
  const allow = [
    ...METHODS.filter((m) => byMethod.has(m)),
    ...(byMethod.has("GET") ? ["HEAD"] : []),
    "OPTIONS",
  ].join(", ");
  const out = {} as Record<Method, Handler>;
  for (const m of METHODS) {
    const e = byMethod.get(m);
    out[m] = e
      ? Object.assign((req: ApiRequest, route: RouteContext) => e.handle(req, route), { endpoint: e })
      : (req) => {
          const id = crypto.randomBytes(8).toString("hex");
          const err = new ApiError(
            "MethodNotAllowed",
            `${req.method} is not allowed here; use ${allow}.`,
            undefined,
            {
              Allow: allow,
            },
          );
          return Promise.resolve(errorResponse(err, id, versionHeaders(req)));
        };
  }
  return out;
}
