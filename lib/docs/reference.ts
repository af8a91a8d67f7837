import type { z } from "zod";
import type { Endpoint, FileResponse, Method, VersionSpec } from "../api/endpoint";
import { versionSpecOf } from "../api/endpoint-versions";
import { openApiDocument, SESSION_ONLY_EXTENSION } from "../api/openapi";
import { routes } from "../compose/catalog";

/**
 * The reference's model: versions, resources (the endpoints' OpenAPI tags) and each endpoint of a version with
 * its OpenAPI operation. Everything is read from the same endpoint specs and OpenAPI document the API serves, so
 * the pages cannot describe a contract the server does not have.
 */
export type Json = Record<string, unknown>;
export type Major = 1 | 2 | 3;

export interface DocVersion {
  major: Major;
  slug: "v1" | "v2" | "v3";
  label: string;
  /** What a request path starts with in this version. */
  basePath: string;
  deprecated: boolean;
  isDefault: boolean;
  note: string;
}

export const VERSIONS: readonly DocVersion[] = [
  {
    major: 1,
    slug: "v1",
    label: "v1",
    basePath: "/api/v1",
    deprecated: true,
    isDefault: false,
    note: "Deprecated: every answer carries `Deprecation: true`. New integrations use version 2.",
  },
  {
    major: 2,
    slug: "v2",
    label: "v2",
    basePath: "/api",
    deprecated: false,
    isDefault: true,
    note: "The current version, served when a request names none (also at /api/v2).",
  },
  {
    major: 3,
    slug: "v3",
    label: "v3",
    basePath: "/api/v3",
    deprecated: false,
    isDefault: false,
    note: "Version 2 plus access and refresh token pairs (POST /auth/token); API keys keep working.",
  },
];

export const DEFAULT_VERSION: DocVersion = VERSIONS.find((v) => v.isDefault) ?? VERSIONS[1]!;

export function versionBySlug(slug: string): DocVersion | undefined {
  return VERSIONS.find((v) => v.slug === slug);
}

export interface DocEndpoint {
  /** Unique within a version: the section's anchor (`get-apps-id-conversations`). */
  anchor: string;
  method: Method;
  path: string;
  summary: string;
  description?: string;
  resource: Resource;
  version: DocVersion;
  deprecated: boolean;
  auth: "required" | "optional" | "none" | "visitor" | "secret";
  /** What a token needs; operator sessions are not scoped. */
  scopes: readonly string[];
  /** Only an operator's session may call it: an API token is refused (the endpoint spec's `sessionOnly`). */
  sessionOnly: boolean;
  asUserWith?: string;
  endpoint: Endpoint;
  form: VersionSpec<z.ZodType>;
  /** The OpenAPI operation of this endpoint in this version's document. */
  operation: Json;
  /** The 200's `data` schema as the document has it (its $refs point into `components`), if an envelope. */
  dataSchema?: Json;
  /** The 200's `meta` schema (`status` and a page's position, where there is one). */
  metaSchema?: Json;
  /** The content type of a 200 that is not the envelope. */
  file?: FileResponse;
  components: Record<string, Json>;
}

export interface Resource {
  slug: string;
  name: string;
}

const UNTAGGED = "Other";

export function resourceOf(e: Endpoint): Resource {
  const name = e.spec.tags?.[0] ?? UNTAGGED;
  return { name, slug: slugify(name) };
}

export function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export function anchorOf(method: string, path: string): string {
  return slugify(`${method} ${path.replace(/[{}]/g, "")}`);
}

// Built once per version: the document is the expensive part and every page of a version reads the same one.
const built = new Map<Major, DocEndpoint[]>();

/** Every endpoint a version serves, in catalog order (the router's table: operators', v3's and visitors'). */
export function endpointsOf(version: DocVersion): DocEndpoint[] {
  const hit = built.get(version.major);
  if (hit) return hit;
  const doc = openApiDocument(routes, version.major);
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const components = ((doc.components as Json).schemas ?? {}) as Record<string, Json>;
  const out: DocEndpoint[] = [];
  for (const e of routes) {
    const form = versionSpecOf<VersionSpec<z.ZodType>>(e.spec, version.major);
    if (!form) continue;
    const operation = paths[e.spec.path]?.[e.spec.method.toLowerCase()];
    if (!operation) continue;
    const content = ((operation.responses as Json)["200"] as Json).content as Record<string, Json>;
    const envelope = content["application/json"]?.schema as Json | undefined;
    const isFile = "contentType" in form.response;
    out.push({
      anchor: anchorOf(e.spec.method, e.spec.path),
      method: e.spec.method,
      path: e.spec.path,
      summary: e.spec.summary,
      ...(typeof operation.description === "string" ? { description: operation.description } : {}),
      resource: resourceOf(e),
      version,
      deprecated: version.deprecated,
      auth: e.spec.auth ?? "required",
      scopes: (operation["x-scopes"] ?? []) as string[],
      sessionOnly: operation[SESSION_ONLY_EXTENSION] === true,
      ...(e.spec.asUserWith ? { asUserWith: e.spec.asUserWith } : {}),
      endpoint: e,
      form,
      operation,
      ...(!isFile && envelope
        ? {
            dataSchema: (envelope.properties as Record<string, Json>).data,
            metaSchema: (envelope.properties as Record<string, Json>).meta,
          }
        : {}),
      ...(isFile ? { file: form.response as FileResponse } : {}),
      components,
    });
  }
  built.set(version.major, out);
  return out;
}

/** The resources a version has, alphabetically, each with its endpoints in catalog order. */
export function resourcesOf(version: DocVersion): { resource: Resource; endpoints: DocEndpoint[] }[] {
  const by = new Map<string, { resource: Resource; endpoints: DocEndpoint[] }>();
  for (const d of endpointsOf(version)) {
    const group = by.get(d.resource.slug) ?? { resource: d.resource, endpoints: [] };
    group.endpoints.push(d);
    by.set(d.resource.slug, group);
  }
  return [...by.values()].sort((a, b) => a.resource.name.localeCompare(b.resource.name));
}

export function zodResponse(d: DocEndpoint): z.ZodType | undefined {
  return "contentType" in d.form.response ? undefined : d.form.response;
}

/** The page of a resource in a version. */
export function resourceHref(version: DocVersion, resourceSlug: string): string {
  return `/docs/${version.slug}/${resourceSlug}`;
}

export function endpointHref(d: DocEndpoint): string {
  return `${resourceHref(d.version, d.resource.slug)}#${d.anchor}`;
}
