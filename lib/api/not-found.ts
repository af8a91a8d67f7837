import crypto from "node:crypto";
import { errorResponse } from "./envelope";
import { ApiError } from "./errors";
import { versionHeaders } from "./endpoint-versions";
import type { ApiRequest } from "./api-request";

/** Unknown API paths answer in the envelope, never with the HTML 404 page. */
export function notFound(req: ApiRequest): Promise<Response> {
  return Promise.resolve(
    errorResponse(
      new ApiError("NotFound", `No API endpoint at ${req.method} ${new URL(req.url).pathname}.`),
      crypto.randomBytes(8).toString("hex"),
      versionHeaders(req),
    ),
  );
}
