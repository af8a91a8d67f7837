import Link from "next/link";
import { resourceHref, resourcesOf, type DocVersion } from "@/lib/docs/reference";
import { guideLinks, searchEntries, versionLinks } from "@/lib/docs/navigation";
import { SearchBox } from "./search-box";
import { VersionSelect } from "./version-select";

/** The reference's frame: search and version on top, the guides and the version's resources at the side. */
export function DocsShell({
  version,
  resource,
  guide,
  children,
}: {
  version: DocVersion;
  resource?: string;
  /** The guide being read (guides are the same in every version). */
  guide?: string;
  children: React.ReactNode;
}) {
  const groups = resourcesOf(version);
  return (
    <div className="min-h-screen bg-white text-slate-900">
      <header className="sticky top-0 z-20 flex items-center gap-4 border-b border-slate-200 bg-white/95 px-6 py-3 backdrop-blur">
        <Link href="/docs" className="whitespace-nowrap font-semibold">
          Relay API reference
        </Link>
        <SearchBox entries={searchEntries(version)} />
        <div className="ml-auto">
          <VersionSelect links={versionLinks(resource)} current={version.slug} />
        </div>
      </header>
      {version.deprecated && (
        <p role="note" className="border-b border-amber-200 bg-amber-50 px-6 py-2 text-sm text-amber-900">
          Version 1 is deprecated. {version.note}
        </p>
      )}
      <div className="flex">
        <nav
          aria-label="Resources"
          className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-60 shrink-0 overflow-y-auto border-r border-slate-200 px-4 py-6 md:block"
        >
          <Link
            href={`/docs/${version.slug}`}
            className="block rounded px-2 py-1 text-sm font-medium hover:bg-slate-100"
          >
            Overview
          </Link>
          <p className="mt-4 px-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Guides</p>
          <ul className="mt-1" aria-label="Guides">
            {guideLinks().map((g) => (
              <li key={g.slug}>
                <Link
                  href={g.href}
                  aria-current={g.slug === guide ? "page" : undefined}
                  className={`block rounded px-2 py-1 text-sm hover:bg-slate-100 ${g.slug === guide ? "bg-slate-100 font-medium" : ""}`}
                >
                  {g.title}
                </Link>
              </li>
            ))}
          </ul>
          <p className="mt-4 px-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Resources</p>
          <ul className="mt-1">
            {groups.map((g) => (
              <li key={g.resource.slug}>
                <Link
                  href={resourceHref(version, g.resource.slug)}
                  aria-current={g.resource.slug === resource ? "page" : undefined}
                  className={`block rounded px-2 py-1 text-sm hover:bg-slate-100 ${g.resource.slug === resource ? "bg-slate-100 font-medium" : ""}`}
                >
                  {g.resource.name} <span className="ml-1 text-xs text-slate-400">{g.endpoints.length}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main className="min-w-0 flex-1 px-8 py-8">{children}</main>
      </div>
    </div>
  );
}
