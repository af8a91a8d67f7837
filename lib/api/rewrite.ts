import type { IncomingMessage } from "node:http";
import { CLIENT_IP_HEADER, VERSION_HEADER } from "./endpoint";

/**
 * `/api/v1/x` and `/api/v2/x` are served by the route of `/api/x` with the version in a header only this server
 * sets; a trailing slash is served as is, without a redirect.
 */
export function rewriteApiUrl(req: IncomingMessage): void {
  delete req.headers[VERSION_HEADER];
  // The peer address, for rate-limiting requests without a token; only this server sets it.
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  const url = req.url ?? "/";
  if (!url.startsWith("/api")) return;
  const q = url.indexOf("?");
  let path = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? "" : url.slice(q);
  const m = /^\/api\/v(\d+)(\/.*)?$/.exec(path);
  if (m?.[1]) {
    req.headers[VERSION_HEADER] = m[1];
    path = "/api" + (m[2] ?? "");
  }
  if (path.length > 4 && path.endsWith("/")) path = path.replace(/\/+$/, "");
  req.url = path + search;
}
