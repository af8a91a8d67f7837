/**
 * The leads filter grammar (lib/leads/filter-grammar.ts) as the panel edits it, and the leads view's URL form.
 * Pure functions: the builder edits a tree by paths (indexes from the root), and only complete conditions are sent.
 */
import {
  isPair,
  valueKind,
  type CondType,
  type FilterCondition,
  type FilterGroup,
  type FilterNode,
} from "@/lib/leads/filter-grammar";
import type { LeadsQuery } from "./leads-types";

export type Path = number[];

export const EMPTY_FILTER: FilterGroup = { type: "and", filters: [] };

export function isGroup(n: unknown): n is FilterGroup {
  if (!n || typeof n !== "object") return false;
  const o = n as Record<string, unknown>;
  return (o.type === "and" || o.type === "or") && Array.isArray(o.filters);
}

/** How the panel names each condition type. */
const OPS: Record<CondType, string> = {
  known: "is known",
  unknown: "is unknown",
  eq: "equals",
  neq: "does not equal",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  gt_or_unknown: "is greater than, or unknown",
  lt_or_unknown: "is less than, or unknown",
  range: "is between",
  str_eq: "is",
  str_neq: "is not",
  str_contains: "contains",
  str_ncontains: "does not contain",
  str_starts: "starts with",
  bool_true: "is true",
  bool_false: "is false",
  daysless: "within the last … days",
  daysmore: "more than … days ago",
  date_gt: "is after",
  date_lt: "is before",
  date_range: "is between dates",
  list_contains: "contains",
  list_ncontains: "does not contain",
  in_segment: "is in segment",
  tag: "has tag",
};

export function operatorLabel(t: CondType): string {
  return OPS[t];
}

const filled = (v: unknown) => v !== undefined && v !== null && v !== "";

/** A condition the server can take: the value its operator needs is there. */
export function isComplete(c: FilterCondition): boolean {
  const k = valueKind(c.type);
  if (!c.property_name) return false;
  if (k === "none") return true;
  if (isPair(k)) return filled(c.value.value1) && filled(c.value.value2);
  return filled(c.value.value);
}

/** The tree without incomplete conditions and empty groups: what is sent to the API and kept in the URL. */
export function cleanFilter(g: FilterGroup): FilterGroup {
  const filters: FilterNode[] = [];
  for (const n of g.filters) {
    if (isGroup(n)) {
      const inner = cleanFilter(n);
      if (inner.filters.length) filters.push(inner);
    } else if (isComplete(n)) filters.push(n);
  }
  return { type: g.type, filters };
}

export function countConditions(g: FilterGroup): number {
  return g.filters.reduce((n, f) => n + (isGroup(f) ? countConditions(f) : 1), 0);
}

/** Applies `fn` to the group at `path` (a copy of the tree is returned; the input is never changed). */
export function updateGroup(root: FilterGroup, path: Path, fn: (g: FilterGroup) => FilterGroup): FilterGroup {
  if (path.length === 0) return fn(root);
  const [i, ...rest] = path;
  return {
    ...root,
    filters: root.filters.map((n, j) => (j === i && isGroup(n) ? updateGroup(n, rest, fn) : n)),
  };
}

export function replaceAt(root: FilterGroup, path: Path, node: FilterNode): FilterGroup {
  const parent = path.slice(0, -1);
  const idx = path[path.length - 1]!;
  return updateGroup(root, parent, (g) => ({
    ...g,
    filters: g.filters.map((n, j) => (j === idx ? node : n)),
  }));
}

export function removeAt(root: FilterGroup, path: Path): FilterGroup {
  const idx = path[path.length - 1]!;
  return updateGroup(root, path.slice(0, -1), (g) => ({
    ...g,
    filters: g.filters.filter((_, j) => j !== idx),
  }));
}

/** Moves a node up (-1) or down (+1) among its siblings; at an end it stays. */
export function moveAt(root: FilterGroup, path: Path, delta: -1 | 1): FilterGroup {
  const idx = path[path.length - 1]!;
  return updateGroup(root, path.slice(0, -1), (g) => {
    const to = idx + delta;
    if (to < 0 || to >= g.filters.length) return g;
    const filters = [...g.filters];
    [filters[idx], filters[to]] = [filters[to]!, filters[idx]!];
    return { ...g, filters };
  });
}

export function appendAt(root: FilterGroup, path: Path, node: FilterNode): FilterGroup {
  return updateGroup(root, path, (g) => ({ ...g, filters: [...g.filters, node] }));
}

// ---- The view in the URL ----

export const DEFAULT_SORT = "$last_seen";

export function parseFilterParam(raw: string | null): FilterGroup {
  if (!raw) return EMPTY_FILTER;
  try {
    const v: unknown = JSON.parse(raw);
    if (isGroup(v)) return v;
    if (Array.isArray(v)) return { type: "and", filters: v as FilterNode[] };
  } catch {
    // a mangled link: start from no filter rather than fail
  }
  return EMPTY_FILTER;
}

export function readQuery(sp: URLSearchParams): LeadsQuery {
  const page = Number(sp.get("page") ?? "1");
  return {
    filters: parseFilterParam(sp.get("filters")),
    sort: sp.get("sort") || DEFAULT_SORT,
    order: sp.get("order") === "asc" ? "asc" : "desc",
    page: Number.isInteger(page) && page > 0 ? page : 1,
    size: sp.get("size") === "50" ? 50 : 20,
  };
}

/** Only what differs from the defaults is written, so plain links stay plain. */
export function writeQuery(q: LeadsQuery, extra: Record<string, string | undefined> = {}): string {
  const sp = new URLSearchParams();
  const f = cleanFilter(q.filters);
  if (f.filters.length) sp.set("filters", JSON.stringify(f));
  if (q.sort !== DEFAULT_SORT) sp.set("sort", q.sort);
  if (q.order !== "desc") sp.set("order", q.order);
  if (q.page !== 1) sp.set("page", String(q.page));
  if (q.size !== 20) sp.set("size", String(q.size));
  for (const [k, v] of Object.entries(extra)) if (v) sp.set(k, v);
  return sp.toString();
}

/** At most this many leads are reachable by paging (offset + limit ≤ 10,000). */
export const MAX_REACHABLE = 10_000;

/** An export holds at most this many leads (the server's EXPORT_MAX_ROWS, restated for the browser bundle). */
export const EXPORT_MAX_ROWS = 100_000;

export function lastReachablePage(total: number, size: number): number {
  return Math.max(1, Math.ceil(Math.min(total, MAX_REACHABLE) / size));
}
