import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import { isDomainError, invalid } from "../domain/errors";
import { customTypedCondition } from "./compile-custom";
import { keyedContainsCondition, type KeyWalks } from "./compile-system";
import { valueCondition, type PropExprs } from "./compile-value";
import { parseFilters, type Condition, type Group, type PropRef } from "./filters";

/**
 * Filters compiled to one parameterised WHERE clause over `users u`. Every value is a bound parameter; the only
 * raw SQL fragments are constant column names from the system-prop table. Typed columns use the users indexes, tags
 * the user_tags index, event props the user_event_summaries indexes, custom props their typed rows and list items
 * (compile-custom.ts); `@>` on the JSON is left for the bench's index-free check (`typedProps: false`).
 */
export const MAX_SEGMENT_NESTING = 3;

const TRUE = Prisma.sql`TRUE`;
const CANONICAL_DT = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$";

export interface CompileOptions {
  db: Pick<Db, "segment" | "$queryRaw">;
  /** The filters select leads (lists, counts, exports): conditions may be answered from the leads indexes alone. */
  leadsOnly?: boolean;
  appId: bigint;
  now?: Date;
  /**
   * A condition's SQL in place of its own where this gives one (typed-walk.ts: a hashed test of its side rows);
   * called with each condition, those of the segments included.
   */
  membership?: (c: Condition) => Prisma.Sql | null;
  /** The request's key walks, when it compiles more than one filter (a list's page and its complement count). */
  keyWalks?: KeyWalks;
  /** The request's segments loaded so far, likewise: each is read once however many filters name it. */
  segments?: LoadedSegments;
  /** Segments being defined (an update checks that a segment does not contain itself). */
  stack?: bigint[];
  /**
   * Custom numbers, dates and presence from user_prop_values (the default) or from the JSON of each user: the
   * bench's exactness check counts the JSON way, which does not depend on the side table being kept.
   */
  typedProps?: boolean;
}

interface Loaded {
  id: bigint;
  filters: unknown;
}

/** Segments by `#id` or `@name`, null for one the app does not have. */
export type LoadedSegments = Map<string, Loaded | null>;

/** SQL expressions for a property: as text, number, timestamp (or canonical text for custom props) and raw JSON. */
export function propExpr(prop: PropRef): PropExprs {
  if (prop.kind === "system") {
    const col = Prisma.raw(`u.${prop.def.column}`);
    return { text: col, num: col, time: col, sort: col };
  }
  if (prop.kind === "event") {
    const col = Prisma.raw(prop.part === "count" ? "s.count" : `s."${prop.part}"`);
    const sub = Prisma.sql`(SELECT ${col} FROM user_event_summaries s WHERE s.user_id = u.id AND s.event_type_id = ${prop.typeId})`;
    return { text: sub, num: sub, time: sub, sort: sub };
  }
  if (prop.kind !== "custom") throw new Error("not a valued property");
  const k = prop.name;
  const json = Prisma.sql`(u.props_custom -> ${k}::text)`;
  return {
    text: Prisma.sql`(CASE WHEN jsonb_typeof(${json}) IN ('string', 'number', 'boolean') THEN u.props_custom ->> ${k}::text END)`,
    num: Prisma.sql`(CASE WHEN jsonb_typeof(${json}) = 'number' THEN (u.props_custom ->> ${k}::text)::numeric END)`,
    time: Prisma.sql`(CASE WHEN jsonb_typeof(${json}) = 'string' AND (u.props_custom ->> ${k}::text) ~ ${CANONICAL_DT} THEN u.props_custom ->> ${k}::text END)`,
    sort: json,
  };
}

/** Conditions that hold for a missing value: for event props they are evaluated as "no summary row fails it". */
const NULL_ACCEPTING = new Set<Condition["type"]>([
  "unknown",
  "neq",
  "gt_or_unknown",
  "lt_or_unknown",
  "str_neq",
  "str_ncontains",
]);

/**
 * `typedFor`: the app whose user_prop_values serve custom conditions, or null to read the JSON. `underOr`: the
 * condition is an alternative of an `or`, where a side table's rows are tested per lead (see `correlated` below).
 */
function condition(c: Condition, now: Date, typedFor: bigint | null, underOr: boolean): Prisma.Sql {
  const { prop, value: v } = c;
  const typed = typedFor === null ? null : customTypedCondition(c, typedFor, now, underOr);
  if (typed) return typed;
  if (prop.kind === "tag") {
    const tag = v.kind === "string" ? v.s : "";
    // The app (equal to the user's) lets the tag's index (app_id, tag) find its users, not a scan of every tag.
    return Prisma.sql`EXISTS (SELECT 1 FROM user_tags t
      WHERE t.user_id = u.id AND t.app_id = u.app_id AND t.tag = ${tag})`;
  }
  const event = eventSummaryMatch(c, now);
  if (event) {
    // A semi-join over the event type's summaries (its index), not a look-up per user: on a million users the
    // correlated form probes the summaries once per lead. The negated form is an anti-join (NOT EXISTS), never
    // `NOT IN`: PostgreSQL cannot turn NOT IN into a join, and once the subquery's users outgrow work_mem for its
    // hash it tests each lead against the whole list (at 5M users "never did it" ran for minutes; NOT EXISTS: 1 s).
    // An alternative of an `or` is looked up by the user for the same reason (customTypedCondition's `correlated`).
    const type = Prisma.sql`s.event_type_id = ${event.typeId}`;
    return event.none || underOr
      ? Prisma.sql`${Prisma.raw(event.none ? "NOT " : "")}EXISTS (SELECT 1 FROM user_event_summaries s
        WHERE s.user_id = u.id AND ${type} AND ${event.row})`
      : Prisma.sql`u.id IN (SELECT s.user_id FROM user_event_summaries s WHERE ${type} AND ${event.row})`;
  }
  return valueCondition(c, propExpr(prop), now);
}

/**
 * An event condition as its type's summaries `s` (one per user who did it): the users with a summary matching
 * `row`, or (`none`, a condition that a user who never did it passes) the users with no summary matching it.
 */
export function eventSummaryMatch(
  c: Condition,
  now: Date,
): { typeId: bigint; row: Prisma.Sql; none: boolean } | null {
  const prop = c.prop;
  if (prop.kind !== "event") return null;
  const col = Prisma.raw(prop.part === "count" ? "s.count" : `s."${prop.part}"`);
  const inner = valueCondition(c, { text: col, num: col, time: col, sort: col }, now);
  const none = NULL_ACCEPTING.has(c.type);
  return { typeId: prop.typeId, row: none ? Prisma.sql`NOT (${inner})` : inner, none };
}

/**
 * Compiles a parsed tree. `$segment` conditions expand the segment's own filters in place (one query in the end);
 * a segment that contains itself, directly or through others, is refused, and nesting is bounded.
 */
export async function compileFilters(root: Group, opts: CompileOptions): Promise<Prisma.Sql> {
  const now = opts.now ?? new Date();
  const cache: LoadedSegments = opts.segments ?? new Map<string, Loaded | null>();
  const load = async (c: Condition): Promise<Loaded | null> => {
    const v = c.value;
    if (v.kind !== "segment") return null;
    const key = v.id !== undefined ? `#${v.id}` : `@${v.name}`;
    if (!cache.has(key)) {
      const where =
        v.id !== undefined ? { id: v.id, appId: opts.appId } : { name: v.name ?? "", appId: opts.appId };
      const seg = await opts.db.segment.findFirst({
        where,
        select: { id: true, filters: true },
        orderBy: { id: "asc" },
      });
      cache.set(key, seg);
    }
    return cache.get(key) ?? null;
  };

  const group = async (g: Group, stack: bigint[], inOr: boolean): Promise<Prisma.Sql> => {
    if (g.items.length === 0) return TRUE;
    const underOr = inOr || (g.op === "or" && g.items.length > 1);
    const parts: Prisma.Sql[] = [];
    for (const item of g.items) {
      if (item.kind === "group") parts.push(await group(item, stack, underOr));
      else if (item.prop.kind === "segment") parts.push(await segment(item, stack, underOr));
      else {
        const member = opts.membership?.(item);
        if (member) {
          parts.push(member);
          continue;
        }
        const keyed = opts.leadsOnly
          ? await keyedContainsCondition(opts.db, opts.appId, item, opts.keyWalks)
          : null;
        parts.push(keyed ?? condition(item, now, opts.typedProps === false ? null : opts.appId, underOr));
      }
    }
    return Prisma.sql`(${Prisma.join(parts, g.op === "and" ? " AND " : " OR ")})`;
  };

  const segment = async (c: Condition, stack: bigint[], underOr: boolean): Promise<Prisma.Sql> => {
    const field = `${c.path}.value`;
    const seg = await load(c);
    const v = c.value;
    const label = v.kind === "segment" ? (v.id !== undefined ? String(v.id) : `"${v.name}"`) : "?";
    if (!seg) throw invalid({ [field]: `no segment ${label} in this app` });
    if (stack.includes(seg.id))
      throw invalid({ [field]: `segment ${seg.id} contains itself through $segment` });
    if (stack.length >= MAX_SEGMENT_NESTING + (opts.stack?.length ?? 0)) {
      throw invalid({ [field]: `segments nest at most ${MAX_SEGMENT_NESTING} levels` });
    }
    let inner: Group;
    try {
      inner = parseFilters(seg.filters, `segment ${seg.id}`);
    } catch (err) {
      if (isDomainError(err))
        throw invalid({ [field]: `segment ${seg.id} has filters that no longer apply` });
      throw err;
    }
    return group(inner, [...stack, seg.id], underOr);
  };

  return group(root, opts.stack ?? [], false);
}
