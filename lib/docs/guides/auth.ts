import { SESSION_ONLY_MESSAGE } from "../../api/access";
import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from "../../auth/scopes";
import { SESSION_COOKIE } from "../../auth/sessions";
import {
  ACCESS_TTL_SECONDS,
  JWT_ALG,
  JWT_ISSUER,
  KEY_ROTATE_AFTER_MS,
  REFRESH_TTL_SECONDS,
  RETIRED_KEY_KEEP_MS,
} from "../../auth/jwt-config";
import { DEFAULT_VERSION, endpointHref, endpointsOf, type DocEndpoint } from "../reference";
import { CSRF_HEADER_NAME, type GuideCall } from "./calls";

/**
 * The authentication guide's model: the scope table, the session-only and as-user endpoints and the v3 token
 * figures, each read from the code that enforces them (lib/auth/scopes.ts, the endpoint specs, jwt-config.ts).
 */
export interface EndpointLink {
  label: string;
  href: string;
}

const linkOf = (d: DocEndpoint): EndpointLink => ({ label: `${d.method} ${d.path}`, href: endpointHref(d) });

export interface ScopeRow {
  scope: Scope;
  description: string;
  /** The default version's endpoints a token needs this scope for. */
  endpoints: EndpointLink[];
}

export function scopeRows(): ScopeRow[] {
  const docs = endpointsOf(DEFAULT_VERSION);
  return SCOPES.map((scope) => ({
    scope,
    description: SCOPE_DESCRIPTIONS[scope],
    endpoints: docs
      .filter((d) => d.scopes.includes(scope) || (scope === "as-user" && d.asUserWith !== undefined))
      .map(linkOf),
  }));
}

/** Endpoints no API token may call, from their specs' `sessionOnly`. */
export function sessionOnlyEndpoints(): EndpointLink[] {
  return endpointsOf(DEFAULT_VERSION)
    .filter((d) => d.sessionOnly)
    .map(linkOf);
}

/** Endpoints where a parameter makes the call act as the visitor (the spec's `asUserWith`). */
export function asUserEndpoints(): (EndpointLink & { param: string })[] {
  return endpointsOf(DEFAULT_VERSION)
    .filter((d) => d.asUserWith !== undefined)
    .map((d) => ({ ...linkOf(d), param: d.asUserWith! }));
}

export const SESSION = {
  cookie: SESSION_COOKIE,
  csrfHeader: CSRF_HEADER_NAME,
  refusal: SESSION_ONLY_MESSAGE,
};

const DAY_MS = 24 * 3600_000;

export const TOKENS = {
  algorithm: JWT_ALG,
  issuer: JWT_ISSUER,
  accessSeconds: ACCESS_TTL_SECONDS,
  refreshDays: REFRESH_TTL_SECONDS / 86_400,
  keyRotateDays: KEY_ROTATE_AFTER_MS / DAY_MS,
  retiredKeptSeconds: RETIRED_KEY_KEEP_MS / 1000,
};

/** The guide's runnable calls, by what they show. */
export const AUTH_CALLS = {
  withKey: { version: "v2", method: "GET", path: "/ping" },
  login: {
    version: "v2",
    method: "POST",
    path: "/auth/login",
    params: { email: "jane@example.com", password: "YOUR_PASSWORD" },
    credential: "none",
  },
  me: { version: "v2", method: "GET", path: "/auth/me", credential: "session" },
  sessionWrite: {
    version: "v2",
    method: "POST",
    path: "/apps/{id}/availability",
    params: { id: 1, status: "away" },
    credential: "session",
  },
  asUser: {
    version: "v2",
    method: "POST",
    path: "/conversations/{id}/reply",
    params: { id: 1042, body: "Sent as the visitor", from_user: "default_user" },
  },
  selfApp: { version: "v2", method: "GET", path: "/apps/{id}/channels", params: { id: "$self_app" } },
  exchange: { version: "v3", method: "POST", path: "/auth/token", params: { grant_type: "api_key" } },
  withAccess: { version: "v3", method: "GET", path: "/ping", credential: "access" },
  refresh: {
    version: "v3",
    method: "POST",
    path: "/auth/token",
    params: { grant_type: "refresh_token", refresh_token: "rlr_YOUR_REFRESH_TOKEN" },
    credential: "none",
  },
  operatorLogin: {
    version: "v3",
    method: "POST",
    path: "/auth/login",
    params: { email: "jane@example.com", password: "YOUR_PASSWORD" },
    credential: "none",
  },
  jwks: { version: "v3", method: "GET", path: "/.well-known/jwks.json", credential: "none" },
} as const satisfies Record<string, GuideCall>;
