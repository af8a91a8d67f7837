import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "./logger";
import { observeRequest } from "./metrics";
import type { RequestNote } from "./request-note";

/**
 * A request's one log line and its metrics, once its answer is sent (or the client has gone). The path is logged
 * without its query, which may carry a link's token; never a header or a body.
 */
export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  note: RequestNote,
  ms: number,
): void {
  const method = req.method ?? "GET";
  const url = req.url ?? "/";
  const route = note.route ?? (url.startsWith("/_next/") ? "next asset" : "page");
  const status = res.statusCode;
  observeRequest(method, route, status, ms / 1000);
  const q = url.indexOf("?");
  const line = {
    req_id: res.getHeader("x-request-id"),
    method,
    path: q < 0 ? url : url.slice(0, q),
    route,
    status,
    ms: Math.round(ms * 10) / 10,
    ...(note.appId === undefined ? {} : { app: note.appId.toString() }),
    ...(note.actor === undefined ? {} : { actor: note.actor }),
    // The client left before the whole answer was sent.
    ...(res.writableFinished ? {} : { aborted: true }),
  };
  if (status >= 500) logger.error(line, "request");
  else logger.info(line, "request");
}
