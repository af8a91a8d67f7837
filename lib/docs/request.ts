import type { Method } from "../api/endpoint";
import { SESSION_COOKIE } from "../auth/sessions";
import { exampleOf } from "./example";
import { exampleParamsOf } from "./params";
import type { DocEndpoint } from "./reference";

/**
 * An endpoint's example request as data: what the code samples print and, next, what a try-it console sends.
 * Values come from the parameters' schemas (lib/docs/example.ts) unless the caller gives real ones.
 */
export interface ExampleRequest {
  method: Method;
  /** Origin, version base and path, the path's parameters filled in; no query string. */
  url: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Sent as JSON, or as multipart when `files` is not empty. */
  body?: Record<string, unknown>;
  /** Multipart file fields: the name of the field and of an example file. */
  files: Record<string, string>;
}

export interface RequestOptions {
  origin?: string;
  /** The API key (for visitor endpoints the visitor's access token, for session-only ones the session cookie). */
  token?: string;
  /** Real values for parameters (a test's IDs), by name. */
  values?: Record<string, unknown>;
}

export const EXAMPLE_ORIGIN = "https://relay.example.com";
const PLACEHOLDER_TOKEN = "YOUR_API_KEY";
const PLACEHOLDER_VISITOR = "VISITOR_ACCESS_TOKEN";
const PLACEHOLDER_SESSION = "YOUR_SESSION_COOKIE";
const PLACEHOLDER_CSRF = "YOUR_CSRF_TOKEN";

/** The server reads it case-blind (lib/auth/sessions.ts CSRF_HEADER); written as the panel sends it. */
export const CSRF_HEADER_NAME = "X-CSRF-Token";

/** An operator session's headers: the session cookie, and on writes its CSRF token (from GET /auth/me). */
export function sessionHeaders(method: Method, cookie = PLACEHOLDER_SESSION): Record<string, string> {
  return {
    Cookie: `${SESSION_COOKIE}=${cookie}`,
    ...(method === "GET" ? {} : { [CSRF_HEADER_NAME]: PLACEHOLDER_CSRF }),
  };
}

/** Query and form values are text: arrays and objects travel JSON-encoded (the API decodes them). */
export function asText(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

export function exampleRequest(d: DocEndpoint, opts: RequestOptions = {}): ExampleRequest {
  const values: Record<string, unknown> = {};
  const files: Record<string, string> = {};
  const params = exampleParamsOf(d);
  for (const p of params) {
    if (p.file) files[p.name] = "file.csv";
    else values[p.name] = opts.values?.[p.name] ?? exampleOf(p.schema, d.components, p.name, true);
  }
  let path = d.path;
  for (const p of params.filter((x) => x.in === "path")) {
    path = path.replace(`{${p.name}}`, encodeURIComponent(asText(values[p.name])));
  }
  const headers: Record<string, string> = {};
  // No token is accepted there: the session's headers.
  if (d.sessionOnly) Object.assign(headers, sessionHeaders(d.method, opts.token));
  else if (d.auth === "required" || d.auth === "optional")
    headers.Authorization = `Token ${opts.token ?? PLACEHOLDER_TOKEN}`;
  if (d.auth === "visitor") headers.Authorization = `Bearer ${opts.token ?? PLACEHOLDER_VISITOR}`;
  const rest = params.filter((p) => p.in !== "path" && !p.file);
  const inQuery = d.method === "GET" || d.method === "DELETE";
  const query = inQuery ? Object.fromEntries(rest.map((p) => [p.name, asText(values[p.name])])) : {};
  const body = inQuery ? undefined : Object.fromEntries(rest.map((p) => [p.name, values[p.name]]));
  return {
    method: d.method,
    url: `${opts.origin ?? EXAMPLE_ORIGIN}${d.version.basePath}${path}`,
    query,
    headers,
    ...(body && (Object.keys(body).length || Object.keys(files).length) ? { body } : {}),
    files,
  };
}

/** The URL with its query string. */
export function fullUrl(r: ExampleRequest): string {
  const q = new URLSearchParams(r.query).toString();
  return q ? `${r.url}?${q}` : r.url;
}

export function isMultipart(r: ExampleRequest): boolean {
  return Object.keys(r.files).length > 0;
}
