/**
 * The reference's search, run in the browser: this file imports nothing, so that the search box does not bring
 * the catalog into the page's bundle.
 */
export interface SearchEntry {
  kind: "resource" | "endpoint";
  /** The summary, or the resource's name. */
  title: string;
  method?: string;
  path?: string;
  resource: string;
  href: string;
}

/**
 * The entries a query finds: every word in the title, path or resource name; resources whose name matches come
 * first, so that Enter on "conversations" opens the Conversations page rather than one endpoint of it.
 */
export function searchFor(entries: readonly SearchEntry[], query: string): SearchEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const text = (e: SearchEntry) => `${e.title} ${e.method ?? ""} ${e.path ?? ""} ${e.resource}`.toLowerCase();
  const hits = entries.filter((e) => words.every((w) => text(e).includes(w)));
  // A word that is a whole path segment ranks its endpoint above those whose segments merely contain it ("reply"
  // before "quickreply").
  const segments = (e: SearchEntry) => new Set((e.path ?? "").toLowerCase().split("/"));
  const rank = (e: SearchEntry) =>
    e.kind === "resource"
      ? -Infinity
      : -words.filter((w) => w.split("/").every((part) => segments(e).has(part))).length;
  return hits
    .map((e, i) => ({ e, i, r: rank(e) }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r - b.r))
    .map((x) => x.e);
}
