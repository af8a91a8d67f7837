import { v1Keyset, v1Meta, v1PageParams, v2Keyset, v2Meta, v2PageParams } from "../../api/pagination";
import { v1PageMeta, v2PageMeta } from "../../contract/schemas";
import type { KeyShape } from "../../domain/keyset";
import { MAX_REACHABLE } from "../../leads/list-leads";
import { paramsOf, type DocParam } from "../params";
import { endpointHref, endpointsOf, versionBySlug, type DocEndpoint } from "../reference";
import type { GuideCall } from "./calls";

/**
 * The pagination guide's model, read from lib/api/pagination.ts (the one translation of v1's and v2's paging to
 * the services' keyset) and from the endpoints themselves: which lists page which way, with each parameter's type
 * and limits as the endpoint's OpenAPI operation states them.
 */
export const V2_PARAMS = Object.keys(v2PageParams) as (keyof typeof v2PageParams)[];
export const V1_PARAMS = Object.keys(v1PageParams) as (keyof typeof v1PageParams)[];
export const V2_META = Object.keys(v2PageMeta.shape);
export const V1_META = Object.keys(v1PageMeta.shape);
export const OFFSET_PARAMS = ["offset", "limit"] as const;

/** What a request without paging parameters gets, from the translators themselves. */
const SHAPE: KeyShape = [{ kind: "ts" }, { kind: "id" }];
export const DEFAULTS = { v2: v2Keyset({}, SHAPE), v1: v1Keyset({}, SHAPE) };

export { MAX_REACHABLE };

type Slug = "v1" | "v2";
const docsOf = (slug: Slug): DocEndpoint[] => endpointsOf(versionBySlug(slug)!);
const has = (d: DocEndpoint, names: readonly string[]) => {
  const mine = new Set(paramsOf(d).map((p) => p.name));
  return names.every((n) => mine.has(n));
};

export interface PagedList {
  label: string;
  href: string;
  kind: "keyset" | "offset";
}

/** Every list of a version that pages, and how: by position (keyset) or by offset (the leads lists). */
export function pagedLists(slug: Slug): PagedList[] {
  const keyset = slug === "v2" ? ["paginate_position", "paginate_count"] : ["after", "count"];
  return docsOf(slug).flatMap((d): PagedList[] => {
    const label = `${d.method} ${d.path}`;
    if (d.method !== "GET") return [];
    if (has(d, keyset)) return [{ label, href: endpointHref(d), kind: "keyset" }];
    if (has(d, OFFSET_PARAMS)) return [{ label, href: endpointHref(d), kind: "offset" }];
    return [];
  });
}

/** The paging parameters' rows as a version's reference shows them, from the first list that takes them all. */
export function pagingParams(slug: Slug, names: readonly string[]): DocParam[] {
  const d = docsOf(slug).find((x) => x.method === "GET" && has(x, names));
  if (!d) throw new Error(`No ${slug} list takes ${names.join(", ")}`);
  return paramsOf(d).filter((p) => names.includes(p.name));
}

/**
 * A worked page border, through the translators: the last row read has key (1715680800.123456 s, 1042), so v2
 * answers it as a position and v1 as a cursor; the side with nothing more answers null.
 */
export function workedBorder() {
  const key = [1_715_680_800_123_456n, 1042n];
  const v2 = v2Keyset({}, SHAPE);
  const v1 = v1Keyset({}, SHAPE);
  const more = { items: [], next: { before: key } };
  const end = { items: [], next: {} };
  return {
    v2More: v2Meta(SHAPE, v2, more),
    v2End: v2Meta(SHAPE, v2, end),
    v1More: v1Meta(SHAPE, v1, more),
    v1End: v1Meta(SHAPE, v1, end),
  };
}

export const PAGINATION_CALLS = {
  v2First: {
    version: "v2",
    method: "GET",
    path: "/conversations/{id}/parts",
    params: { id: 1042, paginate_count: 20 },
  },
  v2Next: {
    version: "v2",
    method: "GET",
    path: "/conversations/{id}/parts",
    params: { id: 1042, paginate_count: 20, paginate_position: [5017] },
  },
  v2After: {
    version: "v2",
    method: "GET",
    path: "/conversations/{id}/parts",
    params: { id: 1042, paginate_direction: "after", paginate_position: [5017], paginate_page_order: "asc" },
  },
  v1Next: {
    version: "v1",
    method: "GET",
    path: "/conversations/{id}/parts",
    params: { id: 1042, count: 20, after: 5017 },
  },
  leads: {
    version: "v2",
    method: "GET",
    path: "/apps/{id}/users",
    params: { id: 1, offset: 40, limit: 20, sort_prop: "$last_seen", sort_order: "desc" },
  },
} as const satisfies Record<string, GuideCall>;

export const WALK_EXAMPLE = `// Every part of a conversation, newest first, 50 at a time (version 2).
async function allParts(origin, key, conversation) {
  const parts = [];
  let position; // none: start from the newest
  for (;;) {
    const q = new URLSearchParams({ paginate_count: "50" });
    if (position) q.set("paginate_position", JSON.stringify(position));
    const res = await fetch(\`\${origin}/api/conversations/\${conversation}/parts?\${q}\`, {
      headers: { Authorization: \`Token \${key}\` },
    });
    const { data, meta } = await res.json();
    parts.push(...data);
    position = meta.next_before_position;
    if (position === null) return parts; // null: nothing older remains
  }
}`;
