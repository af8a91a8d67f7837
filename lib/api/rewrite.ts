import type { IncomingMessage } from "node:http";
import type { BlockList } from "node:net";
import { CLIENT_IP_HEADER, VERSION_HEADER } from "./headers";
import { clientAddress } from "./client-address";

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

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Whether an /api path (after the rewrite, without its query) has the shape of an endpoint's path: at least one
 * segment after /api, none empty (`/apps//search`), none a dot segment (`.`, `..`, or their %-escapes, which URL
 * parsers resolve), and no backslash (which Next reads as a slash). Next answered empty segments and backslashes
 * with a 308 to another path, and resolved dots to another endpoint than the one the path names here. Such a path
 * is refused, not collapsed: an empty segment is most often a missing ID, and collapsing it would shift the
 * segments after it into other parameters (or another endpoint). An escaped slash (`%2F`) is a parameter's own
 * character (a user_id may hold one), decoded into it.
 */
export function endpointShaped(path: string): boolean {
  if (path.includes("\\")) return false;
  const segments = path.split("/").slice(2);
  return segments.length > 0 && segments.every((s) => s !== "" && !DOT_SEGMENT.test(s));
}

/**
 * `/api/v1/x` and `/api/v2/x` are served by the route of `/api/x` with the version in a header only this server
 * sets; a trailing slash is served as is, without a redirect.
 */
export function rewriteApiUrl(req: IncomingMessage, trusted?: BlockList): void {
  delete req.headers[VERSION_HEADER];
  // The client's address, for rate-limiting requests without a token; only this server sets it.
  req.headers[CLIENT_IP_HEADER] = clientAddress(
    req.socket.remoteAddress,
    req.headers["x-forwarded-for"],
    trusted,
  );
  const url = originForm(req.url ?? "/");
  req.url = url;
  if (!url.startsWith("/api")) return;
  const q = url.indexOf("?");
  const { path, version } = catalogPath(q < 0 ? url : url.slice(0, q));
  if (version) req.headers[VERSION_HEADER] = version;
  req.url = q < 0 ? path : path + url.slice(q);
}
