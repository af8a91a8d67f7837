/**
 * Reading the JSON Schemas of the OpenAPI document (zod's output: `anyOf` for unions and nullables, `$ref` into
 * the document's components for shared definitions), for the field tree, the parameter table and the examples.
 */
export type Schema = Record<string, unknown>;
export type Components = Record<string, Schema>;

const REF = "#/components/schemas/";

/** The schema a `$ref` names, with the name (to stop at a recursion), or the schema itself. */
export function deref(s: Schema, components: Components): { schema: Schema; ref?: string } {
  const ref = s.$ref;
  if (typeof ref !== "string") return { schema: s };
  const name = ref.startsWith(REF) ? ref.slice(REF.length) : ref;
  // An unknown reference reads as "any value" rather than failing a whole page.
  return { schema: components[name] ?? {}, ref: name };
}

export function branches(s: Schema): Schema[] {
  const u = s.anyOf ?? s.oneOf;
  return Array.isArray(u) ? (u as Schema[]) : [];
}

export function typesOf(s: Schema): string[] {
  const t = s.type;
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  return typeof t === "string" ? [t] : [];
}

export function isNull(s: Schema): boolean {
  const t = typesOf(s);
  return (t.length === 1 && t[0] === "null") || s.const === null;
}

/** The schema without its null branch, and whether it had one. */
export function splitNullable(s: Schema): { schema: Schema; nullable: boolean } {
  const bs = branches(s);
  if (bs.length > 0 && bs.some(isNull)) {
    const rest = bs.filter((b) => !isNull(b));
    return { schema: rest.length === 1 ? rest[0]! : { ...s, anyOf: rest, oneOf: undefined }, nullable: true };
  }
  const t = typesOf(s);
  if (t.length > 1 && t.includes("null")) {
    return { schema: { ...s, type: t.filter((x) => x !== "null") }, nullable: true };
  }
  return { schema: s, nullable: false };
}

export function properties(s: Schema): [string, Schema][] {
  return Object.entries((s.properties ?? {}) as Record<string, Schema>);
}

export function requiredOf(s: Schema): Set<string> {
  return new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
}

/** A short type for tables and trees: `integer | string`, `array of object`, `"open" | "closed"`. */
export function typeLabel(s: Schema, components: Components, depth = 0): string {
  const { schema, ref } = deref(s, components);
  if (ref && depth > 0) return ref;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const bs = branches(schema);
  if (bs.length) return [...new Set(bs.map((b) => typeLabel(b, components, depth + 1)))].join(" | ");
  const t = typesOf(schema);
  if (t.length === 0) return ref ?? "any";
  return t
    .map((x) => {
      if (x === "array" && schema.items && depth < 3)
        return `array of ${typeLabel(schema.items as Schema, components, depth + 1)}`;
      if (x === "string" && typeof schema.format === "string") return `string (${schema.format})`;
      return x;
    })
    .join(" | ");
}

const BIG = 2 ** 52;

/** Limits worth stating: ranges, lengths, item counts, the values allowed. Zod's ±2^53 bounds are no limit. */
export function limitsOf(s: Schema): string[] {
  const out: string[] = [];
  const num = (k: string) => (typeof s[k] === "number" && Math.abs(s[k]) < BIG ? s[k] : undefined);
  const min = num("minimum") ?? num("exclusiveMinimum");
  const max = num("maximum") ?? num("exclusiveMaximum");
  if (min !== undefined && max !== undefined) out.push(`${min} to ${max}`);
  else if (min !== undefined) out.push(`≥ ${min}`);
  else if (max !== undefined) out.push(`≤ ${max}`);
  const minL = num("minLength");
  const maxL = num("maxLength");
  if (minL !== undefined && minL > 0) out.push(`≥ ${minL} chars`);
  if (maxL !== undefined) out.push(`≤ ${maxL} chars`);
  const maxI = num("maxItems");
  if (maxI !== undefined) out.push(`≤ ${maxI} items`);
  if (Array.isArray(s.enum)) out.push(`one of ${s.enum.map((v) => String(v)).join(", ")}`);
  if (typeof s.pattern === "string") out.push(`pattern ${s.pattern}`);
  return out;
}
