import { Prisma } from "../db/generated/client";
import { canonicalDateTime } from "../user-model/prop-values";
import { keyedTextCondition, presenceCondition, textPresence } from "./compile-system";
import type { Condition, PropRef } from "./filters";

// A condition's value tests over a property's SQL expressions (compile.ts propExpr, or an event summary's column).

const TRUE = Prisma.sql`TRUE`;
const FALSE = Prisma.sql`FALSE`;

/** A property as text, number, timestamp (or canonical text for custom props), and the expression it sorts by. */
export interface PropExprs {
  text: Prisma.Sql;
  num: Prisma.Sql;
  time: Prisma.Sql;
  sort: Prisma.Sql;
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

export function valueCondition(c: Condition, e: PropExprs, now: Date): Prisma.Sql {
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
