import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import { isDomainError, invalid } from "../domain/errors";
import { canonicalDateTime } from "../user-model/prop-values";
import { customTypedCondition } from "./compile-custom";
import {
  keyedContainsCondition,
  keyedTextCondition,
  presenceCondition,
  textPresence,
  type KeyWalks,
} from "./compile-system";
import { parseFilters, type Condition, type Group, type PropRef } from "./filters";

/**
 * Filters compiled to one parameterised WHERE clause over `users u`. Every value is a bound parameter; the only
 * raw SQL fragments are constant column names from the system-prop table. Typed columns use the users indexes, tags
 * the user_tags index, event props the user_event_summaries indexes, custom props their typed rows and list items
 * (compile-custom.ts); `@>` on the JSON is left for the bench's index-free check (`typedProps: false`).
 */
export const MAX_SEGMENT_NESTING = 3;

const TRUE = Prisma.sql`TRUE`;
const FALSE = Prisma.sql`FALSE`;
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

/** SQL expressions for a property: as text, number, timestamp (or canonical text for custom props) and raw JSON. */
export function propExpr(prop: PropRef): {
  text: Prisma.Sql;
  num: Prisma.Sql;
  time: Prisma.Sql;
  sort: Prisma.Sql;
} {
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

/** A `LIKE` pattern matching `s` anywhere, at the start or whole, its wildcards and escapes taken literally. */
function likePattern(s: string, at: "anywhere" | "start" | "whole"): string {
  const lit = s.replace(/[\\%_]/g, "\\$&");
  return at === "whole" ? lit : at === "start" ? `${lit}%` : `%${lit}%`;
}

/**
 * A trigram-indexed condition implied by a system column's text condition (the exact one still decides): the
 * column's own `ILIKE` (users_search_trgm_idx, users_filter_trgm_idx). Both sides are lower-cased as the exact
 * condition does (ILIKE lower-cases both in a multi-byte database). Written after the exact condition and a presence
 * check (a NULL does not stop an AND, a FALSE does): where no index serves it (under an `or`), it is evaluated only
 * for the rows the condition keeps. Custom props have none: their text is read from user_prop_values.
 */
function trigramPrefilter(prop: PropRef, s: string, at: "anywhere" | "start" | "whole"): Prisma.Sql {
  if (prop.kind === "system")
    return Prisma.sql`${Prisma.raw(`u.${prop.def.column}`)} ILIKE ${likePattern(s, at)}::text`;
  return TRUE;
}

function contains(key: string, value: unknown): Prisma.Sql {
  return Prisma.sql`(u.props_custom @> ${JSON.stringify({ [key]: value })}::jsonb)`;
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

/** `typedFor`: the app whose user_prop_values serve custom conditions, or null to read the JSON. */
function condition(c: Condition, now: Date, typedFor: bigint | null): Prisma.Sql {
  const { prop, value: v } = c;
  const typed = typedFor === null ? null : customTypedCondition(c, typedFor, now);
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
    const type = Prisma.sql`s.event_type_id = ${event.typeId}`;
    return event.none
      ? Prisma.sql`NOT EXISTS (SELECT 1 FROM user_event_summaries s WHERE s.user_id = u.id AND ${type} AND ${event.row})`
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

function valueCondition(c: Condition, e: ReturnType<typeof propExpr>, now: Date): Prisma.Sql {
  const { prop, type, value: v } = c;
  const custom = prop.kind === "custom";
  // Custom date-times are canonical UTC text, which orders like the time it names.
  const at = (d: Date) =>
    custom ? Prisma.sql`${canonicalDateTime(d)}::text` : Prisma.sql`${d}::timestamptz`;
  const n = v.kind === "number" ? v.n : 0;
  // An integer column compared with a whole number stays an integer comparison: cast to numeric, every row's value
  // would be converted, and the column's indexes and statistics would go unused.
  const integer =
    (prop.kind === "system" && prop.def.type === "integer") ||
    (prop.kind === "event" && prop.part === "count");
  const num = (x: number) =>
    integer && Number.isSafeInteger(x) ? Prisma.sql`${x}::int8` : Prisma.sql`${x}::numeric`;
  const s = v.kind === "string" ? v.s : "";
  const presence = type === "known" || type === "unknown" ? presenceCondition(prop, type) : null;
  if (presence) return presence;
  // A text condition is FALSE, not NULL, on a missing value (it may be negated).
  const present = textPresence(prop) ?? Prisma.sql`${e.text} IS NOT NULL`;
  switch (type) {
    case "known":
      return custom
        ? Prisma.sql`(u.props_custom -> ${prop.name}::text) IS NOT NULL`
        : Prisma.sql`${e.text} IS NOT NULL`;
    case "unknown":
      return custom
        ? Prisma.sql`(u.props_custom -> ${prop.name}::text) IS NULL`
        : Prisma.sql`${e.text} IS NULL`;
    case "eq":
      return Prisma.sql`${e.num} = ${num(n)}`;
    case "neq":
      return Prisma.sql`(${e.num} IS NULL OR ${e.num} <> ${num(n)})`;
    case "gt":
      return Prisma.sql`${e.num} > ${num(n)}`;
    case "gte":
      return Prisma.sql`${e.num} >= ${num(n)}`;
    case "lt":
      return Prisma.sql`${e.num} < ${num(n)}`;
    case "lte":
      return Prisma.sql`${e.num} <= ${num(n)}`;
    case "gt_or_unknown":
      return Prisma.sql`(${e.num} IS NULL OR ${e.num} > ${num(n)})`;
    case "lt_or_unknown":
      return Prisma.sql`(${e.num} IS NULL OR ${e.num} < ${num(n)})`;
    case "range":
      if (v.kind !== "numbers") return FALSE;
      return Prisma.sql`${e.num} BETWEEN SYMMETRIC ${num(v.a)} AND ${num(v.b)}`;
    case "str_eq":
      return (
        keyedTextCondition(prop, type, s) ??
        Prisma.sql`(${present} AND lower(${e.text}) = lower(${s}::text) AND ${trigramPrefilter(prop, s, "whole")})`
      );
    case "str_neq":
      return Prisma.sql`(${e.text} IS NULL OR lower(${e.text}) <> lower(${s}::text))`;
    case "str_contains":
      return Prisma.sql`(${present} AND strpos(lower(${e.text}), lower(${s}::text)) > 0 AND ${trigramPrefilter(prop, s, "anywhere")})`;
    case "str_ncontains":
      return Prisma.sql`(${e.text} IS NULL OR strpos(lower(${e.text}), lower(${s}::text)) = 0)`;
    case "str_starts":
      return (
        keyedTextCondition(prop, type, s) ??
        Prisma.sql`(${present} AND starts_with(lower(${e.text}), lower(${s}::text)) AND ${trigramPrefilter(prop, s, "start")})`
      );
    case "bool_true":
      return custom ? contains(prop.name, true) : FALSE;
    case "bool_false":
      return custom ? contains(prop.name, false) : FALSE;
    case "daysless":
      return Prisma.sql`${e.time} >= ${at(new Date(now.getTime() - n * 86_400_000))}`;
    case "daysmore":
      return Prisma.sql`${e.time} < ${at(new Date(now.getTime() - n * 86_400_000))}`;
    case "date_gt":
      return v.kind === "date" ? Prisma.sql`${e.time} > ${at(v.d)}` : FALSE;
    case "date_lt":
      return v.kind === "date" ? Prisma.sql`${e.time} < ${at(v.d)}` : FALSE;
    case "date_range":
      return v.kind === "dates" ? Prisma.sql`${e.time} BETWEEN SYMMETRIC ${at(v.a)} AND ${at(v.b)}` : FALSE;
    case "list_contains":
      return custom ? contains(prop.name, [s]) : FALSE;
    case "list_ncontains":
      return custom ? Prisma.sql`NOT ${contains(prop.name, [s])}` : FALSE;
    case "in_segment":
    case "tag":
      return FALSE;
  }
}

/**
 * Compiles a parsed tree. `$segment` conditions expand the segment's own filters in place (one query in the end);
 * a segment that contains itself, directly or through others, is refused, and nesting is bounded.
 */
export async function compileFilters(root: Group, opts: CompileOptions): Promise<Prisma.Sql> {
  const now = opts.now ?? new Date();
  const cache = new Map<string, Loaded | null>();
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

  const group = async (g: Group, stack: bigint[]): Promise<Prisma.Sql> => {
    if (g.items.length === 0) return TRUE;
    const parts: Prisma.Sql[] = [];
    for (const item of g.items) {
      if (item.kind === "group") parts.push(await group(item, stack));
      else if (item.prop.kind === "segment") parts.push(await segment(item, stack));
      else {
        const member = opts.membership?.(item);
        if (member) {
          parts.push(member);
          continue;
        }
        const keyed = opts.leadsOnly
          ? await keyedContainsCondition(opts.db, opts.appId, item, opts.keyWalks)
          : null;
        parts.push(keyed ?? condition(item, now, opts.typedProps === false ? null : opts.appId));
      }
    }
    return Prisma.sql`(${Prisma.join(parts, g.op === "and" ? " AND " : " OR ")})`;
  };

  const segment = async (c: Condition, stack: bigint[]): Promise<Prisma.Sql> => {
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
    return group(inner, [...stack, seg.id]);
  };

  return group(root, opts.stack ?? []);
}
