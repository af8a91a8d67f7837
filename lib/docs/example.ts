import {
  branches,
  deref,
  isNull,
  properties,
  requiredOf,
  typesOf,
  type Components,
  type Schema,
} from "./json-schema";

/**
 * Example values generated from a JSON Schema, deterministically (the same schema gives the same example on every
 * build): plausible by format and field name, and within the schema's limits, so that an example parses with the
 * zod schema it was generated from (the tests hold every response example to that).
 */
const EPOCH = 1_715_680_800; // 2024-05-14T10:00:00Z: one fixed moment for every timestamp.
const ISO = "2024-05-14T10:00:00.000Z";

/** A small stable number per field name: IDs differ between fields yet never between builds. */
function hashOf(name: string): number {
  let h = 7;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) % 9973;
  return h;
}

const isIdName = (n: string) =>
  n === "id" ||
  n.endsWith("_id") ||
  /^(app|part|conversation|user|admin|channel|message|bot|segment)$/.test(n);
const isTimeName = (n: string) =>
  /(^|_)(created|updated|time|date|last_update|until|at|since|expires|seen|sent|started|ended)(_|$)/.test(n);

const STRINGS: [RegExp, string][] = [
  [/email/, "jane@example.com"],
  [/^(name|full_name|user_name)$|_name$/, "Jane Doe"],
  [/phone/, "+14155550123"],
  [/url|link|href|avatar|picture|image/, "https://example.com/image.png"],
  [/domain|host/, "example.com"],
  [/token/, "rly_3f9a2c7e"],
  [/color|colour/, "#2563eb"],
  [/lang|locale/, "en"],
  [/time_?zone|tz/, "Europe/Berlin"],
  [/country/, "DE"],
  [/city/, "Berlin"],
  [/^ip$|_ip$|address/, "203.0.113.7"],
  [/tag/, "vip"],
  [/(^|_)type$|kind/, "default"],
  [/status|state/, "active"],
  [/body|text|message|note|description|comment/, "Hello! How can we help?"],
  [/title|subject/, "Welcome"],
  [/key|secret/, "k_7d1e4b"],
];

function stringFor(name: string): string {
  for (const [re, v] of STRINGS) if (re.test(name)) return v;
  return name ? name.replace(/_/g, " ") : "text";
}

const FORMATS: Record<string, string> = {
  "date-time": ISO,
  date: "2024-05-14",
  time: "10:00:00",
  email: "jane@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "3f1c2b9e-8a4d-4e2f-9b6a-1d2e3f4a5b6c",
  ipv4: "203.0.113.7",
  ipv6: "2001:db8::7",
  hostname: "example.com",
  binary: "@file",
};

function clampNumber(s: Schema, v: number, integer: boolean): number {
  const lo =
    typeof s.minimum === "number"
      ? s.minimum
      : typeof s.exclusiveMinimum === "number"
        ? s.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const hi =
    typeof s.maximum === "number"
      ? s.maximum
      : typeof s.exclusiveMaximum === "number"
        ? s.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  let out = v;
  if (lo !== undefined && out < lo) out = lo;
  if (hi !== undefined && out > hi) out = hi;
  if (typeof s.multipleOf === "number" && s.multipleOf > 0)
    out = Math.ceil(out / s.multipleOf) * s.multipleOf;
  return integer ? Math.round(out) : out;
}

function numberFor(s: Schema, name: string, integer: boolean): number {
  let v: number;
  if (isIdName(name)) v = 1000 + hashOf(name);
  else if (isTimeName(name)) v = EPOCH;
  else if (/count|total|number|size|limit|seconds|minutes|hours/.test(name)) v = 3;
  else if (/page|position|index|level|order|step/.test(name)) v = 1;
  else v = integer ? 42 : 4.5;
  return clampNumber(s, v, integer);
}

/** A string that satisfies the schema's pattern, when one of a few plausible candidates does. */
function stringMatching(s: Schema, name: string, base: string, variant = 0): string {
  if (typeof s.pattern !== "string") return base;
  const re = new RegExp(s.pattern, "u");
  const candidates = [
    base,
    String(1000 + hashOf(name)),
    "-1",
    "abc",
    "a",
    "A1",
    "2024-05-14",
    "09:00",
    "17:30",
    "x_1",
  ];
  // A tuple's positions take different matches: a range's start and end must differ.
  const matching = candidates.filter((c) => re.test(c));
  return matching[variant % Math.max(1, matching.length)] ?? base;
}

function stringFromSchema(s: Schema, name: string, variant: number): string {
  const format = typeof s.format === "string" ? FORMATS[s.format] : undefined;
  let v = stringMatching(s, name, format ?? stringFor(name), variant);
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  if (v.length > max) v = v.slice(0, max);
  while (v.length < min) v += "x";
  return v;
}

/** Among a union's branches: a number rather than a string (IDs are numbers unless `id_as_string`), never null. */
function preferred(bs: Schema[], components: Components): Schema | undefined {
  const real = bs.filter((b) => !isNull(b));
  const rank = (b: Schema) => {
    const t = typesOf(deref(b, components).schema);
    return t.includes("integer") || t.includes("number") ? 0 : t.includes("object") ? 1 : 2;
  };
  return [...real].sort((a, b) => rank(a) - rank(b))[0] ?? bs[0];
}

interface Walk {
  components: Components;
  /** References being expanded: a recursive definition is cut where it repeats. */
  stack: string[];
  /** The position in a tuple, so that its members differ. */
  variant: number;
  /** Objects with their required fields only (request examples): optional ones may exclude each other. */
  lean: boolean;
}

function generate(s: Schema, name: string, w: Walk): unknown {
  const { schema, ref } = deref(s, w.components);
  if (ref && w.stack.includes(ref)) return minimal(schema);
  const inner: Walk = ref ? { ...w, stack: [...w.stack, ref] } : w;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1)
    return generate(schema.allOf[0] as Schema, name, inner);
  const bs = branches(schema);
  if (bs.length) {
    const pick = preferred(bs, w.components);
    return pick ? generate(pick, name, inner) : null;
  }
  const types = typesOf(schema);
  const t =
    types.find((x) => x === "integer" || x === "number") ?? types.find((x) => x !== "null") ?? types[0];
  switch (t) {
    case "object":
      return objectFrom(schema, inner);
    case "array":
      return arrayFrom(schema, name, inner);
    case "integer":
      return numberFor(schema, name, true);
    case "number":
      return numberFor(schema, name, false);
    case "boolean":
      return /^(is_|has_|enabled|active|online)/.test(name);
    case "string":
      return stringFromSchema(schema, name, w.variant);
    case "null":
      return null;
    default:
      // Any JSON value (z.unknown, z.json()): a small object reads as what such fields usually hold.
      return schema.properties ? objectFrom(schema, inner) : name ? { key: "value" } : {};
  }
}

function objectFrom(s: Schema, w: Walk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const all = properties(s);
  const required = requiredOf(s);
  let chosen = w.lean ? all.filter(([k]) => required.has(k)) : all;
  if (w.lean && chosen.length === 0) chosen = all.slice(0, 1);
  for (const [k, v] of chosen) out[k] = generate(v, k, w);
  const extra = s.additionalProperties;
  if (Object.keys(out).length === 0 && typeof extra === "object" && extra !== null) {
    const names = (s.propertyNames ?? {}) as Schema;
    const key = Array.isArray(names.enum) ? String(names.enum[0]) : stringMatching(names, "key", "key");
    out[key] = generate(extra as Schema, key, w);
  }
  return out;
}

function arrayFrom(s: Schema, name: string, w: Walk): unknown[] {
  if (Array.isArray(s.prefixItems))
    return (s.prefixItems as Schema[]).map((x, i) => generate(x, name, { ...w, variant: i }));
  const items = (s.items ?? {}) as Schema;
  const min = typeof s.minItems === "number" ? s.minItems : 0;
  const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
  const n = Math.min(Math.max(1, min), max);
  const singular = name.endsWith("s") ? name.slice(0, -1) : name;
  return Array.from({ length: n }, () => generate(items, singular, { ...w, variant: 0 }));
}

/** Where a recursive definition repeats: the least value its type allows. */
function minimal(s: Schema): unknown {
  const t = typesOf(s);
  if (t.includes("array")) return [];
  if (t.includes("object")) return {};
  if (t.includes("null")) return null;
  return null;
}

/**
 * An example of `schema`, `$ref`s resolved against `components`; `name` is the field it is for (naming hints).
 * `lean`: objects hold their required fields only, as a request example sends.
 */
export function exampleOf(schema: Schema, components: Components = {}, name = "", lean = false): unknown {
  return generate(schema, name, { components, stack: [], variant: 0, lean });
}
