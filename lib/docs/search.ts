/**
 * The reference's search, run in the browser: this file imports nothing, so that the search box does not bring
 * the catalog into the page's bundle.
 */
export interface SearchEntry {
  kind: "resource" | "endpoint" | "guide";
  /** The summary, the resource's name, or the guide's title. */
  title: string;
  method?: string;
  path?: string;
  resource: string;
  /** A guide's other words (its summary and keywords), matched but not shown. */
  keywords?: string;
  href: string;
}

/**
 * The entries a query finds: every word in the title, path, resource name or a guide's keywords. Guides whose title
 * has every word come first, then resources, so that Enter on "webhooks" opens the guide and Enter on
 * "conversations" the Conversations page rather than one endpoint of it; guides found by a keyword only follow.
 */
export function searchFor(entries: readonly SearchEntry[], query: string): SearchEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const text = (e: SearchEntry) =>
    `${e.title} ${e.method ?? ""} ${e.path ?? ""} ${e.resource} ${e.keywords ?? ""}`.toLowerCase();
  const hits = entries.filter((e) => words.every((w) => text(e).includes(w)));
  // A word that is a whole path segment ranks its endpoint above those whose segments merely contain it ("reply"
  // before "quickreply").
  const segments = (e: SearchEntry) => new Set((e.path ?? "").toLowerCase().split("/"));
  const inTitle = (e: SearchEntry) => words.every((w) => e.title.toLowerCase().includes(w));
  const rank = (e: SearchEntry) =>
    e.kind === "guide"
      ? inTitle(e)
        ? -Infinity
        : -1e6
      : e.kind === "resource"
        ? -1e9
        : -words.filter((w) => w.split("/").every((part) => segments(e).has(part))).length;
  return hits
    .map((e, i) => ({ e, i, r: rank(e) }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r - b.r))
    .map((x) => x.e);
}
