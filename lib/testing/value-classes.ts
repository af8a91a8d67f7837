import { z } from "zod";

/**
 * Value classes that must never answer 5xx, for the catalog-wide fuzz suites: each parameter gets every
 * value of the classes its documented type belongs to, not a sample.
 */

/** A value written into JSON text as is (numbers JSON.stringify cannot make, like 1e400). */
export class Raw {
  constructor(readonly text: string) {}
}

const RAW_MARK = "\u0001raw:";
/** JSON text of the parameters, Raw values written as is. */
export function jsonText(params: Record<string, unknown>): string {
  const text = JSON.stringify(params, (_k, v: unknown) => (v instanceof Raw ? RAW_MARK + v.text : v));
  // JSON.stringify escapes U+0001 as \u0001.
  return text.replace(/"\\u0001raw:([^"]*)"/g, (_m, t: string) => t);
}

export type ParamKind = "integer" | "number" | "boolean" | "string" | "list" | "json";

/** Each parameter's kind, from the JSON Schema the OpenAPI document is made of. */
export function paramKinds(schema: z.ZodType): Record<string, ParamKind> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { type?: string | string[] }>;
  };
  const out: Record<string, ParamKind> = {};
  for (const [name, prop] of Object.entries(json.properties ?? {})) {
    const types = [prop.type ?? []].flat();
    // JSON-encoded parameters (p.json) are preprocessed without a documented type.
    out[name] = types.includes("integer")
      ? "integer"
      : types.includes("number")
        ? "number"
        : types.includes("boolean")
          ? "boolean"
          : types.includes("array")
            ? "list"
            : types.includes("string")
              ? "string"
              : "json";
  }
  return out;
}

const INT_VALUES: unknown[] = [
  new Raw("9223372036854775808"),
  "9223372036854775808",
  "18446744073709551616",
  -1,
  "-1",
  new Raw("1e400"),
  "1e400",
  // Year 0 and year 10000 as Unix seconds.
  -62_167_219_200,
  253_402_300_800,
];
const LONE_SURROGATES = ["a\ud800", "\udc00b"];
const DATE_TEXT = ["0000-01-01T00:00:00", "10000-01-01T00:00:00", "+275760-09-13T00:00:00Z"];
/** JSON text holding lone surrogates (JSON.stringify escapes them: the text itself is valid). */
const SURROGATE_JSON = [JSON.stringify({ "k\ud800": ["a\udc00"] }), JSON.stringify(["a\ud800"])];

/** Out-of-range date-times where JSON parameters carry them: props operations and leads filters. */
const DATE_JSON: Record<string, unknown[]> = {
  operations: [
    ["0000-01-01T00:00:00", "10000-01-01T00:00:00", -62_167_219_200].map((value) => ({
      op: "update_or_create",
      key: "$last_seen",
      value,
    })),
    [{ op: "set_once", key: "when", value: "0000-01-01T00:00:00" }],
  ],
  filters: [
    {
      type: "and",
      filters: [{ property_name: "$last_seen", type: "date_gt", value: { value: "0000-01-01" } }],
    },
    {
      type: "or",
      filters: [
        {
          property_name: "when",
          type: "date_range",
          value: { value1: "2024-01-01", value2: -62_167_219_200 },
        },
        { property_name: "$event_1_last", type: "daysmore", value: { value: 1e12 } },
      ],
    },
  ],
};

/** The value classes for one parameter of a kind. */
export function valueClasses(name: string, kind: ParamKind): unknown[] {
  const dates = (DATE_JSON[name] ?? []).flatMap((v) => [v, JSON.stringify(v)]);
  switch (kind) {
    case "integer":
    case "number":
      return INT_VALUES;
    case "boolean":
      return LONE_SURROGATES;
    case "string":
      return [...LONE_SURROGATES, ...DATE_TEXT, ...SURROGATE_JSON, ...dates];
    case "list":
      return [...SURROGATE_JSON, ["a\ud800"], LONE_SURROGATES[0], ...INT_VALUES.slice(0, 2)];
    case "json":
      return [...SURROGATE_JSON, { "k\ud800": 1 }, ...dates];
  }
}

/** Path values for every path parameter (`{id}`, `{segment_id}`, …). */
export const PATH_CLASSES = ["9223372036854775808", "18446744073709551616", "-1", "1e400"];
