import { ERROR_STATUS } from "../../api/errors";
import { isDomainError } from "../../domain/errors";
import {
  conditionTypesFor,
  MAX_CONDITIONS,
  MAX_DAYS,
  MAX_DEPTH,
  MAX_TEXT,
  type CondType,
  type FilterNode,
  type OperandKind,
} from "../../leads/filter-grammar";
import { conditionDocs, type ConditionDoc } from "../../leads/filters-doc";
import { parseFilters } from "../../leads/filters";
import { SYSTEM_PROPS } from "../../user-model/system-props";
import { paramsOf } from "../params";
import { DEFAULT_VERSION, endpointHref, endpointsOf } from "../reference";
import type { GuideCall } from "./calls";

/**
 * The leads filter guide's model. Every table is read from the grammar's data (lib/leads/filter-grammar.ts) that
 * parseFilters checks requests against, every example is parsed by parseFilters in the tests, and every error
 * shown is the one parseFilters throws for its example, so none of it can drift from what the API accepts.
 */
export const LIMITS = { depth: MAX_DEPTH, conditions: MAX_CONDITIONS, text: MAX_TEXT, days: MAX_DAYS };

/** Condition types grouped by value shape and the properties they apply to (filters-doc.ts, the OpenAPI text's). */
export function conditionTable(): ConditionDoc[] {
  return conditionDocs();
}

/** The default version's endpoints that take a `filters` tree. */
export function filterEndpoints(): { label: string; href: string }[] {
  return endpointsOf(DEFAULT_VERSION)
    .filter((d) => paramsOf(d).some((p) => p.name === "filters"))
    .map((d) => ({ label: `${d.method} ${d.path}`, href: endpointHref(d) }));
}

export interface PropertyRow {
  /** How a request names such properties. */
  names: string;
  kind: OperandKind | "untyped";
  types: CondType[];
}

const systemNames = (type: string) =>
  Object.entries(SYSTEM_PROPS)
    .filter(([, d]) => d.type === type)
    .map(([n]) => n)
    .join(", ");

/** Which condition types each kind of property takes, as parseFilters decides (presence checks first). */
export function propertyTable(): PropertyRow[] {
  const rows: [string, OperandKind | "untyped"][] = [
    ["custom props (no $): untyped, so every value type's conditions", "untyped"],
    [systemNames("string"), "string"],
    [systemNames("integer"), "integer"],
    [systemNames("datetime"), "datetime"],
    ["$event_<id>_count", "integer"],
    ["$event_<id>_first, $event_<id>_last", "datetime"],
    ["$segment", "segment"],
    ["$tag", "tag"],
  ];
  return rows.map(([names, kind]) => ({ names, kind, types: conditionTypesFor(kind) }));
}

export interface FilterExample {
  id: string;
  title: string;
  filters: FilterNode | FilterNode[];
}

export const FILTER_EXAMPLES: FilterExample[] = [
  {
    id: "one",
    title: "One condition: email known",
    filters: { type: "and", filters: [{ property_name: "$email", type: "known", value: {} }] },
  },
  {
    id: "nested",
    title: "Nested groups: paying users seen this week, in Germany or tagged vip",
    filters: {
      type: "and",
      filters: [
        { property_name: "plan", type: "str_eq", value: { value: "pro" } },
        { property_name: "$last_seen", type: "daysless", value: { value: 7 } },
        {
          type: "or",
          filters: [
            { property_name: "$country", type: "str_eq", value: { value: "DE" } },
            { property_name: "$tag", type: "tag", value: { value: "vip" } },
          ],
        },
      ],
    },
  },
  {
    id: "events",
    title: "Events: did event type 12 at least 3 times, the last time before May 2024",
    filters: [
      { property_name: "$event_12_count", type: "gte", value: { value: 3 } },
      { property_name: "$event_12_last", type: "date_lt", value: { value: "2024-05-01T00:00:00Z" } },
    ],
  },
  {
    id: "segment",
    title: "Segments and ranges: in segment “Trial” with 2 to 10 sessions",
    filters: [
      { property_name: "$segment", type: "in_segment", value: { value: "Trial" } },
      { property_name: "$sessions", type: "range", value: { value1: 2, value2: 10 } },
    ],
  },
];

export interface FilterErrorExample {
  id: string;
  what: string;
  filters: unknown;
  status: number;
  /** What parseFilters answers, by the field's path: the envelope's `error_fields`. */
  errorFields: Record<string, string>;
}

const BAD: Omit<FilterErrorExample, "status" | "errorFields">[] = [
  {
    id: "wrong-type",
    what: "A condition type the property does not take",
    filters: {
      type: "and",
      filters: [{ property_name: "$sessions", type: "str_eq", value: { value: "3" } }],
    },
  },
  {
    id: "bad-value",
    what: "A value of the wrong shape",
    filters: {
      type: "and",
      filters: [
        { property_name: "$email", type: "known", value: {} },
        { property_name: "$last_seen", type: "daysless", value: { value: "last week" } },
      ],
    },
  },
  {
    id: "unknown-prop",
    what: "A $ name that is no system, event or pseudo property",
    filters: [{ property_name: "$plan", type: "known", value: {} }],
  },
  {
    id: "too-deep",
    what: `Groups nested deeper than ${MAX_DEPTH} levels`,
    filters: {
      type: "and",
      filters: [{ type: "or", filters: [{ type: "and", filters: [{ type: "or", filters: [] }] }] }],
    },
  },
];

/** Each bad filter with what the parser answers it (the same check the endpoint makes). */
export function filterErrors(): FilterErrorExample[] {
  return BAD.map((b) => {
    try {
      parseFilters(b.filters);
    } catch (err) {
      if (isDomainError(err) && err.fields)
        return { ...b, status: ERROR_STATUS.ValidationError, errorFields: err.fields };
      throw err;
    }
    throw new Error(`The filter example ${b.id} is accepted: it shows no error`);
  });
}

export const FILTER_CALLS = {
  list: {
    version: "v2",
    method: "GET",
    path: "/apps/{id}/users",
    params: { id: 1, filters: FILTER_EXAMPLES[1]!.filters, limit: 20 },
  },
} as const satisfies Record<string, GuideCall>;
