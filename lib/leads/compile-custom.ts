import { Prisma } from "../db/generated/client";
import { canonicalDateTime } from "../user-model/prop-values";
import type { Condition } from "./filters";

/**
 * Custom-prop number, date, text, boolean and presence conditions over `user_prop_values` (one typed row per user
 * and custom prop, kept by the users triggers of migrations *_user_prop_values and *_prop_values_text_lead), and
 * list conditions over `user_prop_items` (*_prop_list_items), instead of the JSON of every lead. The row's `num` is the prop when it is a JSON number, its `at` the prop when it is a
 * canonical UTC date-time string, its `txt` the lower-cased text of a string, number or boolean (collated "C") and
 * its `bool` a JSON boolean, as propExpr and `@>` read them from the JSON, so both forms give the same answers (the
 * bench counts each case both ways). Both sides of a text comparison are lower-cased by the database, as the JSON
 * form does.
 *
 * A condition that a missing or untyped value fails is the users among the matching rows (`u.id IN`: an index-only
 * range, hashed when under an `or`); one that such a value passes is the users with no row failing it (`NOT
 * EXISTS`: an anti-join). The app's constant, not `u.app_id`, leads each subquery so the index range serves it.
 */
interface TypedMatch {
  /** What a row of the prop must hold. */
  row: Prisma.Sql;
  /** The condition holds for the users with no such row (rather than those with one). */
  none: boolean;
}

/** The rows whose text contains the condition's: one of its values (custom-keys.ts) where they were walked. */
function containing(c: Condition, t: Prisma.Sql): Prisma.Sql {
  return c.keys ? Prisma.sql`v.txt = ANY(${c.keys}::text[])` : Prisma.sql`strpos(v.txt, ${t}) > 0`;
}

function typedMatch(c: Condition, now: Date): TypedMatch | null {
  const v = c.value;
  const n = v.kind === "number" ? Prisma.sql`${v.n}::numeric` : null;
  const at = (d: Date) => Prisma.sql`${canonicalDateTime(d)}::text`;
  const t = v.kind === "string" ? Prisma.sql`lower(${v.s}::text)` : null;
  // Only for the days conditions (0 to 36500 days): another number, a large one, is no date at all.
  const days = v.kind === "number" && (c.type === "daysless" || c.type === "daysmore");
  const daysAgo = days ? at(new Date(now.getTime() - v.n * 86_400_000)) : null;
  const some = (row: Prisma.Sql | null) => row && { row, none: false };
  const none = (row: Prisma.Sql | null) => row && { row, none: true };
  const cmp = (op: string) => n && Prisma.sql`v.num ${Prisma.raw(op)} ${n}`;
  switch (c.type) {
    case "known":
      return some(Prisma.sql`TRUE`);
    case "unknown":
      return none(Prisma.sql`TRUE`);
    case "eq":
      return some(cmp("="));
    case "neq":
      return none(cmp("="));
    case "gt":
      return some(cmp(">"));
    case "gte":
      return some(cmp(">="));
    case "lt":
      return some(cmp("<"));
    case "lte":
      return some(cmp("<="));
    case "gt_or_unknown":
      return none(cmp("<="));
    case "lt_or_unknown":
      return none(cmp(">="));
    case "range": {
      // Ordered here rather than BETWEEN SYMMETRIC, which the planner turns into two index ranges OR-ed in a bitmap
      // (the heap read for every row) instead of one index-only range.
      if (v.kind !== "numbers") return null;
      const [lo, hi] = v.a <= v.b ? [v.a, v.b] : [v.b, v.a];
      return some(Prisma.sql`v.num BETWEEN ${lo}::numeric AND ${hi}::numeric`);
    }
    case "daysless":
      return some(daysAgo && Prisma.sql`v.at >= ${daysAgo}`);
    case "daysmore":
      return some(daysAgo && Prisma.sql`v.at < ${daysAgo}`);
    case "date_gt":
      return v.kind === "date" ? some(Prisma.sql`v.at > ${at(v.d)}`) : null;
    case "date_lt":
      return v.kind === "date" ? some(Prisma.sql`v.at < ${at(v.d)}`) : null;
    case "date_range": {
      if (v.kind !== "dates") return null;
      const [lo, hi] = v.a <= v.b ? [v.a, v.b] : [v.b, v.a];
      return some(Prisma.sql`v.at BETWEEN ${at(lo)} AND ${at(hi)}`);
    }
    case "str_eq":
      return some(t && Prisma.sql`v.txt = ${t}`);
    case "str_neq":
      return none(t && Prisma.sql`v.txt = ${t}`);
    case "str_starts":
      // `^@` under the column's "C" collation: planned with its value, an index range of the prefix.
      return some(t && Prisma.sql`v.txt ^@ ${t}`);
    case "str_contains":
      return some(t && containing(c, t));
    case "str_ncontains":
      return none(t && containing(c, t));
    case "bool_true":
      return some(Prisma.sql`v.bool = TRUE`);
    case "bool_false":
      return some(Prisma.sql`v.bool = FALSE`);
    default:
      return null;
  }
}

/**
 * A list condition over `user_prop_items` (one row per string item of a list value, migration *_prop_list_items):
 * `list_contains` is the users with the item's row, as `@>` with a one-string list matches; `list_ncontains` those
 * without (a missing prop or a value that is not a list passes, as `NOT @>` does).
 */
function listItemMatch(c: Condition, appId: bigint): { where: Prisma.Sql; none: boolean } | null {
  if (c.prop.kind !== "custom" || c.value.kind !== "string") return null;
  if (c.type !== "list_contains" && c.type !== "list_ncontains") return null;
  return {
    where: Prisma.sql`i.app_id = ${appId} AND i.key = ${c.prop.name}::text AND i.item = ${c.value.s}::text`,
    none: c.type === "list_ncontains",
  };
}

/**
 * `correlated`: the rows are looked up by the lead (`EXISTS … WHERE v.user_id = u.id`) rather than listed (`u.id IN
 * (…)`). Under an `and` both become the same semi-join; an alternative of an `or` stays a subplan, and PostgreSQL
 * hashes the list only while it fits in hash_mem: past that it scanned the whole list once per lead (the nested
 * or/and at 5M users: `company` contains, 290k rows against 2M leads, still running after 4 minutes), where the
 * correlated form probes the user's rows (user_prop_values_pkey) and is hashed the same way when it fits.
 */
export function customTypedCondition(
  c: Condition,
  appId: bigint,
  now: Date,
  correlated = false,
): Prisma.Sql | null {
  // A prop most leads have (42% hold `company` in the bench) is cheaper tested in the JSON of the leads walked
  // than probed in the side table once per lead: 563 against 708 ms at 1M (offset 9,980: 841 against 1,307 ms).
  // Its total is still counted here (customLeadRows).
  if (c.prop.kind !== "custom" || c.type === "known") return null;
  const list = listItemMatch(c, appId);
  if (list) {
    return list.none || correlated
      ? Prisma.sql`${Prisma.raw(list.none ? "NOT " : "")}EXISTS (SELECT 1 FROM user_prop_items i
        WHERE i.user_id = u.id AND ${list.where})`
      : Prisma.sql`u.id IN (SELECT i.user_id FROM user_prop_items i WHERE ${list.where})`;
  }
  const m = typedMatch(c, now);
  if (!m) return null;
  const key = c.prop.name;
  return m.none || correlated
    ? Prisma.sql`${Prisma.raw(m.none ? "NOT " : "")}EXISTS (SELECT 1 FROM user_prop_values v
      WHERE v.user_id = u.id AND v.app_id = ${appId} AND v.key = ${key}::text AND ${m.row})`
    : Prisma.sql`u.id IN (SELECT v.user_id FROM user_prop_values v
      WHERE v.app_id = ${appId} AND v.key = ${key}::text AND ${m.row})`;
}

/**
 * The (v2) leads one custom condition keeps, as the prop's matching rows (or list items) flagged `lead`
 * (lead-rows.ts): their flag follows the user's, and a user has at most one row per prop (and per item). Null for a
 * condition the rows do not serve.
 */
export function customLeadRows(
  c: Condition,
  appId: bigint,
  now: Date,
): { ids: Prisma.Sql; count: Prisma.Sql; in: boolean } | null {
  if (c.prop.kind !== "custom") return null;
  const list = listItemMatch(c, appId);
  if (list) {
    const where = Prisma.sql`${list.where} AND i.lead`;
    return {
      ids: Prisma.sql`SELECT i.user_id FROM user_prop_items i WHERE ${where}`,
      count: Prisma.sql`(SELECT count(*) FROM user_prop_items i WHERE ${where})`,
      in: !list.none,
    };
  }
  const m = typedMatch(c, now);
  if (!m) return null;
  const where = Prisma.sql`v.app_id = ${appId} AND v.key = ${c.prop.name}::text AND ${m.row} AND v.lead`;
  return {
    ids: Prisma.sql`SELECT v.user_id FROM user_prop_values v WHERE ${where}`,
    count: Prisma.sql`(SELECT count(*) FROM user_prop_values v WHERE ${where})`,
    in: !m.none,
  };
}
