import {
  branches,
  deref,
  properties,
  requiredOf,
  splitNullable,
  typeLabel,
  typesOf,
  type Components,
  type Schema,
} from "./json-schema";

/** A field of a response, as the reference's field tree shows it. */
export interface FieldNode {
  name: string;
  type: string;
  required: boolean;
  nullable: boolean;
  description?: string;
  children: FieldNode[];
}

const MAX_DEPTH = 6;

/** The object whose fields a schema shows: itself, an array's item, or a union's object branches merged. */
function objectOf(
  s: Schema,
  components: Components,
  seen: string[],
): { schema: Schema; seen: string[] } | undefined {
  const { schema, ref } = deref(s, components);
  if (ref && seen.includes(ref)) return undefined;
  const next = ref ? [...seen, ref] : seen;
  const { schema: plain } = splitNullable(schema);
  if (properties(plain).length) return { schema: plain, seen: next };
  if (typesOf(plain).includes("array") && plain.items)
    return objectOf(plain.items as Schema, components, next);
  const objects = branches(plain)
    .map((b) => objectOf(b, components, next))
    .filter((x) => x !== undefined);
  if (objects.length === 0) return undefined;
  // A union of objects (a part's variants): every field any variant has, required where all require it.
  const props: Record<string, Schema> = {};
  for (const o of objects) for (const [k, v] of properties(o.schema)) props[k] ??= v;
  const required = [...requiredOf(objects[0]!.schema)].filter((k) =>
    objects.every((o) => requiredOf(o.schema).has(k)),
  );
  return { schema: { type: "object", properties: props, required }, seen: next };
}

function fieldsOf(s: Schema, components: Components, seen: string[], depth: number): FieldNode[] {
  if (depth > MAX_DEPTH) return [];
  const obj = objectOf(s, components, seen);
  if (!obj) return [];
  const required = requiredOf(obj.schema);
  return properties(obj.schema).map(([name, field]) => {
    const { schema, nullable } = splitNullable(deref(field, components).schema);
    const description = field.description ?? schema.description;
    return {
      name,
      type: typeLabel(schema, components),
      required: required.has(name),
      nullable,
      ...(typeof description === "string" ? { description } : {}),
      children: fieldsOf(field, components, obj.seen, depth + 1),
    };
  });
}

/** The fields of a response's `data` (an object's, or its items' for a list), nested. */
export function fieldTree(schema: Schema, components: Components): FieldNode[] {
  return fieldsOf(schema, components, [], 0);
}

/** What `data` is at its top: `object`, `array of object`… */
export function topType(schema: Schema, components: Components): string {
  return typeLabel(schema, components);
}
