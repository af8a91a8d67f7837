import {
  COND_TYPES,
  conditionTypesFor,
  MAX_CONDITIONS,
  MAX_DEPTH,
  valueKind,
  type CondType,
  type OperandKind,
  type ValueKind,
} from "./filter-grammar";

/**
 * The filters grammar as documentation (OpenAPI and /docs), read off the grammar's data (filter-grammar.ts), the
 * same data parseFilters checks requests against, so the description cannot drift from what it accepts.
 */

/** One property of each kind the grammar tells apart, by how a request names it. */
const SAMPLE_PROPS: [kind: OperandKind | "untyped", label: string][] = [
  ["untyped", "custom props"],
  ["string", "text system props"],
  ["integer", "number system props"],
  ["datetime", "date system props"],
  ["integer", "$event_<id>_count"],
  ["datetime", "$event_<id>_first/_last"],
  ["segment", "$segment"],
  ["tag", "$tag"],
];

const DATE = "(Unix seconds or ISO 8601)";
const VALUE_SHAPE: Record<ValueKind, string> = {
  none: "no value",
  number: '{"value": number}',
  numbers: '{"value1": number, "value2": number}',
  text: '{"value": string}',
  // A plain number on date properties counts days back from now.
  days: '{"value": number of days}',
  date: `{"value": date} ${DATE}`,
  dates: `{"value1": date, "value2": date} ${DATE}`,
  segment: '{"value": segment ID or name}',
};

export interface ConditionDoc {
  types: CondType[];
  value: string;
  appliesTo: string[];
}

/** Condition types grouped by value shape and the properties they apply to. */
export function conditionDocs(): ConditionDoc[] {
  const rows = new Map<string, ConditionDoc>();
  for (const type of COND_TYPES) {
    const appliesTo = SAMPLE_PROPS.filter(([kind]) => conditionTypesFor(kind).includes(type)).map(
      ([, label]) => label,
    );
    if (!appliesTo.length) continue;
    const value = VALUE_SHAPE[valueKind(type)];
    const key = `${value}|${appliesTo.join()}`;
    const row = rows.get(key);
    if (row) row.types.push(type);
    else rows.set(key, { types: [type], value, appliesTo });
  }
  return [...rows.values()];
}

export const FILTERS_OUTLINE =
  `A group {"type": "and" | "or", "filters": [conditions or groups]}, nested at most ${MAX_DEPTH} levels ` +
  `and ${MAX_CONDITIONS} conditions in all (a bare array is an "and" group). A condition is ` +
  `{"property_name", "type", "value"}.`;

/** The grammar in one paragraph: the `filters` parameter's description. */
export function filtersDescription(): string {
  const lines = conditionDocs().map(
    (d) => `${d.types.join(", ")}: ${d.value}; on ${d.appliesTo.join(", ")}.`,
  );
  return `Filters (JSON). ${FILTERS_OUTLINE} Condition types:\n${lines.map((l) => `- ${l}`).join("\n")}`;
}
