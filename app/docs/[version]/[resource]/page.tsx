import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { resourcesOf, VERSIONS, versionBySlug } from "@/lib/docs/reference";
import { DocsShell } from "../../_components/shell";
import { EndpointSection } from "../../_components/endpoint-section";

export const dynamicParams = false;

export function generateStaticParams() {
  return VERSIONS.flatMap((v) => resourcesOf(v).map((g) => ({ version: v.slug, resource: g.resource.slug })));
}

type Params = Promise<{ version: string; resource: string }>;

function find(version: string, resource: string) {
  const v = versionBySlug(version);
  const group = v && resourcesOf(v).find((g) => g.resource.slug === resource);
  return v && group ? { version: v, group } : undefined;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { version, resource } = await params;
  const found = find(version, resource);
  return {
    title: found ? `${found.group.resource.name} (${version}) · API reference` : "API reference",
  };
}

export default async function ResourcePage({ params }: { params: Params }) {
  const { version: slug, resource } = await params;
  const found = find(slug, resource);
  if (!found) notFound();
  const { version, group } = found;
  return (
    <DocsShell version={version} resource={group.resource.slug}>
      <h1 className="text-3xl font-semibold">{group.resource.name}</h1>
      <p className="mt-2 text-slate-600">
        Version {version.major}
        {version.deprecated ? " (deprecated)" : ""} · base URL <code>{version.basePath}</code> ·{" "}
        {group.endpoints.length} endpoint{group.endpoints.length === 1 ? "" : "s"}
      </p>
      <ul className="mt-4 space-y-1 text-sm">
        {group.endpoints.map((d) => (
          <li key={d.anchor}>
            <a className="text-blue-700 hover:underline" href={`#${d.anchor}`}>
              <span className="font-mono">
                {d.method} {d.path}
              </span>
            </a>{" "}
            <span className="text-slate-600">— {d.summary}</span>
          </li>
        ))}
      </ul>
      {group.endpoints.map((d) => (
        <EndpointSection key={d.anchor} d={d} />
      ))}
    </DocsShell>
  );
}
