import type { IncomingMessage } from "node:http";
import { CLIENT_IP_HEADER, VERSION_HEADER } from "./headers";

/** `http://host:port` at the start of an absolute-form request target. */
const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

/**
 * The path and query of a request target. `GET http://other.example/inbox` (the form proxies send, which servers
 * must accept) is routed by its path, as any request to this server: Next answered it with a redirect to the host
 * it names. Other targets that are not paths (`*`) stay as they are.
 */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 0x2f) return target;
  const m = ABSOLUTE_FORM.exec(target);
  if (!m) return target;
  const rest = target.slice(m[0].length);
  return rest.startsWith("/") ? rest : "/" + rest;
}

/** An /api path as the catalog has it: its version prefix (`/api/v1/x`) apart, no trailing slash. */
export function catalogPath(path: string): { path: string; version?: string } {
  const m = /^\/api\/v(\d+)(\/.*)?$/.exec(path);
  const unversioned = m?.[1] ? "/api" + (m[2] ?? "") : path;
  return {
    path: unversioned.length > 4 && unversioned.endsWith("/") ? unversioned.replace(/\/+$/, "") : unversioned,
    version: m?.[1],
  };
}

/**
 * `/api/v1/x` and `/api/v2/x` are served by the route of `/api/x` with the version in a header only this server
 * sets; a trailing slash is served as is, without a redirect.
 */
export function rewriteApiUrl(req: IncomingMessage): void {
  delete req.headers[VERSION_HEADER];
  // The peer address, for rate-limiting requests without a token; only this server sets it.
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  const url = originForm(req.url ?? "/");
  req.url = url;
  if (!url.startsWith("/api")) return;
  const q = url.indexOf("?");
  const { path, version } = catalogPath(q < 0 ? url : url.slice(0, q));
  if (version) req.headers[VERSION_HEADER] = version;
  req.url = q < 0 ? path : path + url.slice(q);
}
