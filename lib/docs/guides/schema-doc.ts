import { z } from "zod";
import { exampleOf } from "../example";
import type { Components, Schema } from "../json-schema";
import { fieldTree, type FieldNode } from "../tree";

/**
 * A zod schema as the guides show it: its field tree and a generated example, through the same JSON Schema reading
 * the reference uses, so that a payload described in a guide is the one the code declares.
 */
export interface SchemaDoc {
  fields: FieldNode[];
  example: unknown;
}

const DEFS = "#/$defs/";
const COMPONENTS = "#/components/schemas/";

/** zod's `$defs` references pointed where lib/docs/json-schema.ts resolves them. */
function relink(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(relink);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      k === "$ref" && typeof x === "string" ? x.replace(DEFS, COMPONENTS) : relink(x),
    ]),
  );
}

export function jsonSchemaOf(s: z.ZodType): { schema: Schema; components: Components } {
  const out = z.toJSONSchema(s, { io: "output", unrepresentable: "any" }) as Schema;
  const defs = (out.$defs ?? {}) as Components;
  delete out.$defs;
  delete out.$schema;
  const components: Components = {};
  for (const [name, def] of Object.entries(defs)) components[name] = relink(def) as Schema;
  return { schema: relink(out) as Schema, components };
}

/** `patch` sets fields the example must hold for its event (a part's `type`), over the generated values. */
export function schemaDoc(s: z.ZodType, patch: Record<string, unknown> = {}): SchemaDoc {
  const { schema, components } = jsonSchemaOf(s);
  const generated = exampleOf(schema, components);
  const example =
    typeof generated === "object" && generated !== null && !Array.isArray(generated)
      ? { ...generated, ...patch }
      : generated;
  return { fields: fieldTree(schema, components), example };
}
