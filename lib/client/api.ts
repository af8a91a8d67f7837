/**
 * The browser's client for the product's API envelope `{data, meta: {status, error?, error_message?, …}}`.
 * Every failure becomes an ApiClientError; writes carry the session's CSRF token (kept in memory only, set after
 * login or /api/auth/me).
 */

import { noteReadPosition } from "./read-position";
import type { Session } from "@/lib/sessions/schemas";

export interface ApiMeta {
  status: number;
  error?: string;
  error_message?: string;
  error_fields?: Record<string, unknown>;
  request_id?: string;
  [key: string]: unknown;
}

export interface ApiEnvelope<T> {
  data: T;
  meta: ApiMeta;
}

/** Errors that happen before the server answers with an envelope. */
export type ClientErrorName = "NetworkError" | "BadResponse";

export class ApiClientError extends Error {
  override readonly name = "ApiClientError";
  constructor(
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    /** The envelope's `meta.error` (ValidationError, AuthenticationFailed, …) or a ClientErrorName. */
    readonly error: string,
    message: string,
    /** Per-field messages from `meta.error_fields`. */
    readonly fields: Record<string, string> = {},
    readonly requestId?: string,
  ) {
    super(message);
  }

  get isUnauthenticated(): boolean {
    return this.status === 401;
  }
}

export function isApiClientError(err: unknown): err is ApiClientError {
  return err instanceof ApiClientError;
}

let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function getCsrfToken(): string | null {
  return csrfToken;
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

const GENERIC_MESSAGE = "Something went wrong. Please try again.";

function buildUrl(path: string, query: RequestOptions["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${qs}`;
}

function normaliseFields(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw || typeof raw !== "object") return out;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === "string") out[key] = value;
    else if (Array.isArray(value) && typeof value[0] === "string") out[key] = value[0];
  }
  return out;
}

function isEnvelope(body: unknown): body is ApiEnvelope<unknown> {
  return !!body && typeof body === "object" && "meta" in body && !!body.meta && typeof body.meta === "object";
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<T>(method, path, opts)).data;
}

/** The whole envelope, for reads whose `meta` matters (pagination positions). */
export async function requestEnvelope<T>(
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiEnvelope<T>> {
  const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof URLSearchParams) {
    body = opts.body;
  } else if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  if (method !== "GET" && method !== "HEAD" && csrfToken) headers["X-CSRF-Token"] = csrfToken;

  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method,
      headers,
      body,
      signal: opts.signal,
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiClientError(
      0,
      "NetworkError",
      "Can't reach the server. Check your connection and try again.",
    );
  }

  noteReadPosition(res.headers.get("x-event-position"));
  let parsed: unknown;
  try {
    parsed = await res.json();
  } catch {
    parsed = undefined;
  }
  if (!isEnvelope(parsed)) {
    throw new ApiClientError(res.status, "BadResponse", GENERIC_MESSAGE);
  }
  const { meta } = parsed;
  const status = typeof meta.status === "number" ? meta.status : res.status;
  if (status >= 400 || meta.error) {
    throw new ApiClientError(
      status,
      meta.error ?? "BadResponse",
      meta.error_message || GENERIC_MESSAGE,
      normaliseFields(meta.error_fields),
      meta.request_id,
    );
  }
  return parsed as ApiEnvelope<T>;
}

export const api = {
  get: <T>(path: string, opts?: Omit<RequestOptions, "body">) => request<T>("GET", path, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    request<T>("POST", path, { ...opts, body }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>("PUT", path, { ...opts, body }),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    request<T>("PATCH", path, { ...opts, body }),
  delete: <T>(path: string, opts?: RequestOptions) => request<T>("DELETE", path, opts),
};

// ---- Shapes of the auth endpoints: the schema login and me declare ----

/** What POST /api/auth/login and GET /api/auth/me return. */
export type Me = Session;
export type AdminInfo = Session["admin"];
export type AppInfo = Session["apps"][number];
