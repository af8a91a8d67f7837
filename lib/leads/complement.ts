import type { CondType } from "./filter-grammar";
import type { Condition, Group } from "./filters";

/**
 * A filter that keeps most leads (`$country` is not "United States": 280k of 415k at 1M) is counted as the leads
 * minus the ones it drops: `total = leads − count(dropped)`. The dropped leads are those of the condition returned
 * here, a positive one an index serves (the leads country index, the GIN on props_custom, a range of the summaries
 * or of user_prop_values), where the negated one reads every lead.
 *
 * Exact only when the condition is never NULL, so that every lead is either kept or dropped: each pair below
 * compiles (compile.ts, compile-custom.ts) to A and NOT A over the same values, with no NULL left to fall between:
 * - system str_neq `(col IS NULL OR lower(col) <> s)`: its dropped leads are str_eq `col IS NOT NULL AND key = s`.
 * - system neq `(col IS NULL OR col <> n)`, eq `col = n`.
 * - custom list_ncontains `NOT (props_custom @> x)`, list_contains `props_custom @> x` (props_custom is NOT NULL).
 * - custom numbers (user_prop_values): neq, gt_or_unknown, lt_or_unknown are `NOT EXISTS` a row with num = n, <= n,
 *   >= n; eq, lte, gte are `u.id IN` the rows with the same test.
 * - event props: the NULL-accepting conditions are `u.id NOT IN` the summaries failing the condition; their counterpart
 *   is `u.id IN` the summaries meeting the opposite one, the same rows since a summary's count, first and last are
 *   NOT NULL (and user_id too, so NOT IN is never NULL).
 *
 * Left out: conditions whose positive form is no cheaper for a frequent value (custom str_neq and text
 * str_ncontains, through a trigram bitmap of every candidate's row; known / unknown, through no index at all), and
 * custom `unknown`, whose JSON counterpart (`known`) is not written on user_prop_values.
 */
const KEYED_TEXT = new Set(["country", "city"]);
const INDEXED_INTEGER = new Set(["sessions"]);

const EVENT_OPPOSITE: Partial<Record<CondType, CondType>> = {
  unknown: "known",
  neq: "eq",
  gt_or_unknown: "lte",
  lt_or_unknown: "gte",
};
const CUSTOM_NUMBER_OPPOSITE: Partial<Record<CondType, CondType>> = {
  neq: "eq",
  gt_or_unknown: "lte",
  lt_or_unknown: "gte",
};

function opposite(c: Condition, typedProps: boolean): CondType | null {
  const { prop, type } = c;
  if (prop.kind === "system") {
    if (type === "str_neq" && KEYED_TEXT.has(prop.def.column)) return "str_eq";
    if (type === "neq" && INDEXED_INTEGER.has(prop.def.column)) return "eq";
    return null;
  }
  if (prop.kind === "custom") {
    if (type === "list_ncontains") return "list_contains";
    return typedProps && c.value.kind === "number" ? (CUSTOM_NUMBER_OPPOSITE[type] ?? null) : null;
  }
  if (prop.kind === "event") return EVENT_OPPOSITE[type] ?? null;
  return null;
}

/**
 * The dropped leads of a filter made of one negated condition (see above), as a filter of their own; null for any
 * other filter, which is counted as it is.
 */
export function droppedLeads(tree: Group, typedProps = true): Group | null {
  if (tree.items.length !== 1) return null;
  const only = tree.items[0];
  if (!only || only.kind !== "cond") return null;
  const type = opposite(only, typedProps);
  return type ? { ...tree, items: [{ ...only, type }] } : null;
}
