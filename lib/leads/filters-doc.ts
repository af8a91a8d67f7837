import { COND_TYPES, MAX_CONDITIONS, MAX_DEPTH, parseFilters, type CondType } from "./filters";

/**
 * The filters grammar as documentation (OpenAPI and /docs), read off the parser itself: each condition type is
 * tried with sample properties and values, so the description cannot drift from what parseFilters accepts.
 */

/** One property of each kind the grammar tells apart, by the name a request would use. */
const SAMPLE_PROPS: [name: string, label: string][] = [
  ["plan", "custom props"],
  ["$email", "text system props"],
  ["$sessions", "number system props"],
  ["$last_seen", "date system props"],
  ["$event_1_count", "$event_<id>_count"],
  ["$event_1_first", "$event_<id>_first/_last"],
  ["$segment", "$segment"],
  ["$tag", "$tag"],
];

const ISO = "2026-01-31T12:00:00Z";

function accepts(prop: string, type: CondType, value: unknown): boolean {
  try {
    parseFilters({ property_name: prop, type, value });
    return true;
  } catch {
    return false;
  }
}

function valueShape(prop: string, type: CondType): string {
  const ok = (v: unknown) => accepts(prop, type, v);
  if (ok({})) return "no value";
  if (ok({ value1: 1, value2: 2 }))
    return ok({ value1: ISO, value2: ISO })
      ? '{"value1": date, "value2": date} (Unix seconds or ISO 8601)'
      : '{"value1": number, "value2": number}';
  const number = ok({ value: 1 });
  const text = ok({ value: "some text" });
  if (number && text) return '{"value": segment ID or name}';
  if (text) return '{"value": string}';
  if (ok({ value: ISO })) return '{"value": date} (Unix seconds or ISO 8601)';
  return '{"value": number}';
}

export interface ConditionDoc {
  types: CondType[];
  value: string;
  appliesTo: string[];
}

/** Condition types grouped by value shape and the properties they apply to. */
export function conditionDocs(): ConditionDoc[] {
  const rows = new Map<string, ConditionDoc>();
  for (const type of COND_TYPES) {
    const props = SAMPLE_PROPS.filter(([name]) =>
      ["{}", '{"value": 1}', '{"value1": 1, "value2": 2}', '{"value": "x"}', `{"value": "${ISO}"}`].some(
        (v) => accepts(name, type, JSON.parse(v)),
      ),
    );
    const first = props[0];
    if (!first) continue;
    const appliesTo = props.map(([, label]) => label);
    const shape = valueShape(first[0], type);
    // A plain number on date properties counts days back from now.
    const value =
      shape === '{"value": number}' && appliesTo.includes("date system props")
        ? '{"value": number of days}'
        : shape;
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
