import type { Method } from "../../api/endpoint";
import { endpointsOf, versionBySlug, type DocEndpoint, type DocVersion } from "../reference";
import { asText, CSRF_HEADER_NAME, exampleRequest, sessionHeaders, type ExampleRequest } from "../request";
import { renderSample } from "../samples";

export { CSRF_HEADER_NAME };

/**
 * A guide's example call, named by version, method and path, and rendered by the reference's own request and
 * sample machinery (lib/docs/request.ts, samples.ts): a call the catalog does not serve fails at build time, and the
 * tests parse every call's parameters with the endpoint's own schema.
 */
export interface GuideCall {
  version: DocVersion["slug"];
  method: Method;
  path: string;
  /** The values this call sends, path parameters included; the endpoint's other required ones are generated. */
  params?: Record<string, unknown>;
  /** How the call authenticates; default: as the endpoint's reference example does (an API key). */
  credential?: "key" | "access" | "session" | "none";
}

export const ACCESS_PLACEHOLDER = "ACCESS_TOKEN";

export function endpointFor(call: GuideCall): DocEndpoint {
  const version = versionBySlug(call.version);
  const d = version && endpointsOf(version).find((e) => e.method === call.method && e.path === call.path);
  if (!d)
    throw new Error(`No ${call.method} ${call.path} in ${call.version}: a guide names a call the API lacks`);
  return d;
}

/** The request as data: the reference's example with this call's values over the generated ones. */
export function requestOf(call: GuideCall, opts: { origin?: string; token?: string } = {}): ExampleRequest {
  const d = endpointFor(call);
  const values = call.params ?? {};
  const generated = exampleRequest(d, { ...opts, values });
  // `$self_app` reads better as typed: a path may hold `$` as it is.
  const r = { ...generated, url: generated.url.replace(/%24self_app/g, "$self_app") };
  const pathNames = new Set([...d.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const inQuery = d.method === "GET" || d.method === "DELETE";
  for (const [k, v] of Object.entries(values)) {
    if (pathNames.has(k)) continue;
    if (inQuery) r.query[k] = asText(v);
    else r.body = { ...r.body, [k]: v };
  }
  const headers: Record<string, string> = { ...r.headers };
  delete headers.Authorization;
  delete headers.Cookie;
  delete headers[CSRF_HEADER_NAME];
  switch (call.credential ?? "key") {
    case "key":
      return r;
    case "access":
      return { ...r, headers: { ...headers, Authorization: `Bearer ${opts.token ?? ACCESS_PLACEHOLDER}` } };
    case "session":
      return { ...r, headers: { ...headers, ...sessionHeaders(d.method, opts.token) } };
    case "none":
      return { ...r, headers };
  }
}

export function curlOf(call: GuideCall, opts: { origin?: string; token?: string } = {}): string {
  return renderSample(requestOf(call, opts), "curl");
}

/**
 * What the endpoint's parameter schema sees of a call: body, query text and the path's values, as the reference
 * test reads its own examples back.
 */
export function sentValues(call: GuideCall): Record<string, unknown> {
  const d = endpointFor(call);
  const r = requestOf(call);
  const out: Record<string, unknown> = { ...r.body, ...r.query };
  const filled = new URL(r.url).pathname.slice(d.version.basePath.length).split("/");
  d.path.split("/").forEach((part, i) => {
    const m = /^\{(\w+)\}$/.exec(part);
    if (m?.[1]) out[m[1]] = decodeURIComponent(filled[i] ?? "");
  });
  return out;
}
