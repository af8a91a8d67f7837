import type { PropType } from "./schemas";

/**
 * The leads filter grammar's data (DESIGN "Users, props, leads"), the one declaration that the server's parser
 * (filters.ts), its documentation (filters-doc.ts) and the panel's builder (lib/client/lead-filters.ts) all read.
 * Browser-safe: nothing here reaches the database or the API's error types.
 */
export const MAX_DEPTH = 3;
export const MAX_CONDITIONS = 30;
/** Property names and text values: 1 to this many characters (values may be empty). */
export const MAX_TEXT = 255;
/** daysless and daysmore count at most this many days back. */
export const MAX_DAYS = 36_500;

export const COND_TYPES = [
  "known",
  "unknown",
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "gt_or_unknown",
  "lt_or_unknown",
  "range",
  "str_eq",
  "str_neq",
  "str_contains",
  "str_ncontains",
  "str_starts",
  "bool_true",
  "bool_false",
  "daysless",
  "daysmore",
  "date_gt",
  "date_lt",
  "date_range",
  "list_contains",
  "list_ncontains",
  "in_segment",
  "tag",
] as const;
export type CondType = (typeof COND_TYPES)[number];

/** A filters tree as requests, segments and the panel's URL hold it. */
export interface FilterCondition {
  property_name: string;
  type: CondType;
  value: Record<string, unknown>;
}
export interface FilterGroup {
  type: "and" | "or";
  filters: FilterNode[];
}
export type FilterNode = FilterGroup | FilterCondition;

/** What a condition compares: a property's value type, or the `$segment` / `$tag` pseudo-properties. */
export type OperandKind = PropType | "segment" | "tag";

/** Whether the property has a value at all: every property but `$segment` and `$tag` takes these. */
const PRESENCE: readonly CondType[] = ["known", "unknown"];
const NUMBER: readonly CondType[] = [
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "gt_or_unknown",
  "lt_or_unknown",
  "range",
];
const STRING: readonly CondType[] = ["str_eq", "str_neq", "str_contains", "str_ncontains", "str_starts"];
const DATE: readonly CondType[] = ["daysless", "daysmore", "date_gt", "date_lt", "date_range"];
const BOOL: readonly CondType[] = ["bool_true", "bool_false"];
const LIST: readonly CondType[] = ["list_contains", "list_ncontains"];

/** Each operand kind's own conditions. */
const OWN: Record<OperandKind, readonly CondType[]> = {
  string: STRING,
  integer: NUMBER,
  float: NUMBER,
  datetime: DATE,
  boolean: BOOL,
  list: LIST,
  segment: ["in_segment"],
  tag: ["tag"],
};

/** Custom props are untyped JSON: they take every value type's conditions. */
const UNTYPED: readonly CondType[] = [...NUMBER, ...STRING, ...DATE, ...BOOL, ...LIST];

/**
 * The condition types a property accepts, presence checks first (the order the API's errors list them); "untyped"
 * is a custom prop, whose stored values may be of any type.
 */
export function conditionTypesFor(kind: OperandKind | "untyped"): CondType[] {
  if (kind === "segment" || kind === "tag") return [...OWN[kind]];
  return [...PRESENCE, ...(kind === "untyped" ? UNTYPED : OWN[kind])];
}

/** The same types with the property's own first: the order the panel offers them, the most useful first. */
export function operatorsFor(kind: OperandKind): CondType[] {
  if (kind === "segment" || kind === "tag") return [...OWN[kind]];
  return [...OWN[kind], ...PRESENCE];
}

/**
 * The `value` each condition type takes: none, `{value}` (a number, a number of days, text, a date, a segment ID
 * or name) or `{value1, value2}` (numbers or dates).
 */
export type ValueKind = "none" | "number" | "numbers" | "text" | "days" | "date" | "dates" | "segment";

const VALUE_KIND: Record<CondType, ValueKind> = {
  known: "none",
  unknown: "none",
  eq: "number",
  neq: "number",
  gt: "number",
  gte: "number",
  lt: "number",
  lte: "number",
  gt_or_unknown: "number",
  lt_or_unknown: "number",
  range: "numbers",
  str_eq: "text",
  str_neq: "text",
  str_contains: "text",
  str_ncontains: "text",
  str_starts: "text",
  bool_true: "none",
  bool_false: "none",
  daysless: "days",
  daysmore: "days",
  date_gt: "date",
  date_lt: "date",
  date_range: "dates",
  list_contains: "text",
  list_ncontains: "text",
  in_segment: "segment",
  tag: "text",
};

export function valueKind(t: CondType): ValueKind {
  return VALUE_KIND[t];
}

/** Whether `{value1, value2}` is the value's form (else `{value}`). */
export const isPair = (k: ValueKind) => k === "numbers" || k === "dates";
