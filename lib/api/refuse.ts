import crypto from "node:crypto";
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { allowedAt } from "./route-table";
import type { Endpoint } from "./endpoint";
import { VERSION_HEADER } from "./headers";
import { errorBody } from "./envelope";
import { ApiError, validation } from "./errors";
import { lingerIfUnread } from "./linger";
import { catalogPath, endpointShaped } from "./rewrite";
import { resolveVersion } from "./versions";

/**
 * Requests no route may see, answered here before any does: a Host that is no host name, a target that is not a
 * path, a path whose %-escapes are not UTF-8, a method nobody serves, an /api path no endpoint can have
 * (lib/api/rewrite.ts endpointShaped). Each got a 500, a redirect or no answer from
 * what followed (`new URL`, Next). /api answers in the envelope, other paths with a plain page.
 */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const SERVED = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const ALL_METHODS = [...SERVED].join(", ");

// A backslash too: Next reads it as a slash.
const isApiPath = (url: string) =>
  url.startsWith("/api") && (url.length === 4 || url[4] === "/" || url[4] === "?" || url[4] === "\\");

export function envelopeRefusal(err: ApiError, requestedVersion?: string): Refusal {
  const id = crypto.randomBytes(8).toString("hex");
  let version: string;
  try {
    version = resolveVersion(requestedVersion).full;
  } catch {
    version = resolveVersion(undefined).full;
  }
  return {
    status: err.status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Request-Id": id,
      "X-API-Version": version,
      ...err.headers,
    },
    body: JSON.stringify(errorBody(err, id)),
  };
}

function page(status: number, headers: Record<string, string> = {}): Refusal {
  return {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
    body: `${status} ${STATUS_CODES[status] ?? ""}\n`,
  };
}

/** TRACE, CONNECT, WebDAV's and unknown methods: 405 with `Allow` on an API path, 404 where none is; else 501. */
export function methodRefusal(catalog: Endpoint[], method: string, url: string, version?: string): Refusal {
  if (!isApiPath(url)) return page(501);
  const q = url.indexOf("?");
  const path = catalogPath(q < 0 ? url : url.slice(0, q)).path;
  const allow = allowedAt(catalog, path);
  const err = allow
    ? new ApiError("MethodNotAllowed", `${method} is not allowed here; use ${allow}.`, undefined, {
        Allow: allow,
      })
    : new ApiError("NotFound", `No API endpoint at ${method} ${path}.`);
  return envelopeRefusal(err, version);
}

const HOST = /^(?:\[[\dA-Fa-f:.]+\]|[\w.-]+)(?::\d{1,5})?$/;
/** Hosts seen valid: one lookup per request instead of a URL parse. Bounded, since anything may be sent. */
const goodHosts = new Set<string>();

function validHost(host: string): boolean {
  if (goodHosts.has(host)) return true;
  if (!HOST.test(host)) return false;
  try {
    // The shape passes numbers no URL takes (`1.2.3.256`, port 99999): what the API's `new URL` would throw on.
    new URL(`http://${host}/`);
  } catch {
    return false;
  }
  if (goodHosts.size >= 256) goodHosts.clear();
  goodHosts.add(host);
  return true;
}

function validEscapes(url: string): boolean {
  const pct = url.indexOf("%");
  if (pct < 0) return true;
  const q = url.indexOf("?");
  if (q >= 0 && q < pct) return true;
  try {
    decodeURIComponent(q < 0 ? url : url.slice(0, q));
    return true;
  } catch {
    return false;
  }
}

function badRequest(url: string, version: string | undefined, field: string, problem: string): Refusal {
  return isApiPath(url) ? envelopeRefusal(validation({ [field]: problem }), version) : page(400);
}

/** The refusal a request gets, after the URL rewrite (lib/api/rewrite.ts), or undefined to route it. */
export function refusalOf(catalog: Endpoint[], req: IncomingMessage): Refusal | undefined {
  const url = req.url ?? "/";
  const method = req.method ?? "GET";
  const version = req.headers[VERSION_HEADER] as string | undefined;
  const host = req.headers.host;
  // HTTP/1.0 may leave the Host out; 1.1 must send one (RFC 9112 3.2).
  if (host === undefined ? req.httpVersion !== "1.0" : !validHost(host))
    return badRequest(url, version, "host", "must be a host name or address, with an optional port");
  if (url.charCodeAt(0) !== 0x2f) {
    if (url === "*" && method === "OPTIONS") return { ...page(204, { Allow: ALL_METHODS }), body: "" };
    return badRequest(url, version, "path", "must be a path or an absolute URI");
  }
  if (!SERVED.has(method)) return methodRefusal(catalog, method, url, version);
  if (!validEscapes(url)) return badRequest(url, version, "path", "has a %-escape that is not UTF-8");
  if (isApiPath(url)) {
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    if (!endpointShaped(path))
      return envelopeRefusal(new ApiError("NotFound", `No API endpoint at ${method} ${path}.`), version);
  }
  return undefined;
}

/** Answers the request if refusalOf refuses it; false routes it. */
export function refuseMalformed(catalog: Endpoint[], req: IncomingMessage, res: ServerResponse): boolean {
  const r = refusalOf(catalog, req);
  if (!r) return false;
  lingerIfUnread(req, res);
  res.writeHead(r.status, r.body ? { ...r.headers, "Content-Length": Buffer.byteLength(r.body) } : r.headers);
  res.end(r.body);
  return true;
}

/**
 * A request that reached an instance past its drain (lib/compose/start.ts): 503 with Retry-After, which the nginx
 * configuration retries on another instance (docs/deploy.md), on a connection that closes.
 */
export function refuseStopping(req: IncomingMessage, res: ServerResponse): void {
  const retry = { "Retry-After": "1", Connection: "close" };
  const r = isApiPath(req.url ?? "/")
    ? envelopeRefusal(
        new ApiError("ServiceUnavailable", "This instance is shutting down: retry.", undefined, retry),
        req.headers[VERSION_HEADER] as string | undefined,
      )
    : page(503, retry);
  lingerIfUnread(req, res);
  res.writeHead(r.status, { ...r.headers, "Content-Length": Buffer.byteLength(r.body) });
  res.end(r.body);
}

/** A refusal as raw HTTP, for a socket the HTTP parser gave up on (lib/api/client-error.ts). */
export function rawRefusal(r: Refusal): string {
  const head = Object.entries(r.headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return (
    `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status] ?? ""}\r\n${head.join("")}` +
    `Content-Length: ${Buffer.byteLength(r.body)}\r\nConnection: close\r\n\r\n${r.body}`
  );
}
