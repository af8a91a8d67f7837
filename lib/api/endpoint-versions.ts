import { resolveVersion, type ApiVersion } from "./versions";
import { VERSION_HEADER } from "./headers";
import type { ApiRequest } from "./api-request";
import { AnswerHeaders, type HeaderSink } from "./answer";

/** An endpoint's forms by major version (lib/api/endpoint.ts); typed loosely so that this file needs none of it. */
interface Forms<V> {
  v1?: V;
  v2?: V;
  v3?: V;
}

/** The form a version is served by: a version without its own form is served by the nearest older one. */
export function pickVersion<V>(spec: Forms<V>, v: ApiVersion): V | undefined {
  if (v.major >= 3 && spec.v3) return spec.v3;
  if (v.major >= 2 && spec.v2) return spec.v2;
  if (spec.v1) return spec.v1;
  return undefined;
}

/** Resolves the requested version and says it on the answer (`X-API-Version`, and `Deprecation` for v1). */
export function applyVersion(headers: HeaderSink, requested: string | undefined): ApiVersion {
  const v = resolveVersion(requested);
  headers.set("X-API-Version", v.full);
  if (v.major === 1) headers.set("Deprecation", "true");
  else headers.delete("Deprecation");
  return v;
}

/** The form of an endpoint a major version is served by (the OpenAPI document of that major lists it). */
export function versionSpecOf<V>(spec: Forms<V>, major: number): V | undefined {
  return pickVersion(spec, { major, full: `${major}.0.0` });
}

/** `X-API-Version` (and `Deprecation`) for answers given outside an endpoint: 404 and 405. */
export function versionHeaders(req: ApiRequest): AnswerHeaders {
  const headers = new AnswerHeaders();
  try {
    const requested =
      req.headers.get(VERSION_HEADER) ?? new URL(req.url).searchParams.get("version") ?? undefined;
    applyVersion(headers, requested);
  } catch {
    applyVersion(headers, undefined);
  }
  return headers;
}
