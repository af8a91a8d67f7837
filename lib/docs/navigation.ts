import type { SearchEntry } from "./search";
import { GUIDES, guideHref } from "./guides/catalog";
import { endpointHref, resourceHref, resourcesOf, VERSIONS, type DocVersion } from "./reference";

/** The version selector's targets and the search's entries, as plain data for the client components' props. */
export function searchEntries(version: DocVersion): SearchEntry[] {
  const guides: SearchEntry[] = GUIDES.map((g) => ({
    kind: "guide" as const,
    title: g.title,
    resource: "Guides",
    keywords: `${g.summary} ${g.keywords.join(" ")}`,
    href: guideHref(g.slug),
  }));
  return guides.concat(
    resourcesOf(version).flatMap(({ resource, endpoints }) => [
      {
        kind: "resource" as const,
        title: resource.name,
        resource: resource.name,
        href: resourceHref(version, resource.slug),
      },
      ...endpoints.map((d) => ({
        kind: "endpoint" as const,
        title: d.summary,
        method: d.method,
        path: d.path,
        resource: resource.name,
        href: endpointHref(d),
      })),
    ]),
  );
}

/** The side navigation's Guides group. */
export function guideLinks(): { slug: string; title: string; href: string }[] {
  return GUIDES.map((g) => ({ slug: g.slug, title: g.title, href: guideHref(g.slug) }));
}

export interface VersionLink {
  slug: string;
  label: string;
  deprecated: boolean;
  isDefault: boolean;
  href: string;
}

/** Each version's page for what is being read: the same resource where that version has it, else its overview. */
export function versionLinks(resourceSlug?: string): VersionLink[] {
  return VERSIONS.map((v) => {
    const has = resourceSlug !== undefined && resourcesOf(v).some((g) => g.resource.slug === resourceSlug);
    return {
      slug: v.slug,
      label: `${v.label}${v.deprecated ? " (deprecated)" : v.isDefault ? " (default)" : v.major === 3 ? " (token pairs)" : ""}`,
      deprecated: v.deprecated,
      isDefault: v.isDefault,
      href: has ? resourceHref(v, resourceSlug) : `/docs/${v.slug}`,
    };
  });
}
