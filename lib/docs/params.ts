import type { DocEndpoint } from "./reference";
import { limitsOf, properties, requiredOf, splitNullable, typeLabel, type Schema } from "./json-schema";

/** One row of an endpoint's parameter table, read from its OpenAPI operation. */
export interface DocParam {
  name: string;
  in: "path" | "query" | "body" | "header";
  type: string;
  required: boolean;
  nullable: boolean;
  limits: string[];
  default?: string;
  description?: string;
  /** A file upload: the request is then multipart. */
  file: boolean;
  schema: Schema;
}

function row(
  name: string,
  where: DocParam["in"],
  schema: Schema,
  required: boolean,
  d: DocEndpoint,
): DocParam {
  const { schema: s, nullable } = splitNullable(schema);
  return {
    name,
    in: where,
    type: typeLabel(s, d.components),
    required,
    nullable,
    limits: limitsOf(s),
    ...(schema.default !== undefined ? { default: JSON.stringify(schema.default) } : {}),
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    file: s.format === "binary",
    schema,
  };
}

/** Path, query and header parameters, then the body's fields (the JSON form of the request body). */
export function paramsOf(d: DocEndpoint): DocParam[] {
  const op = d.operation;
  const out: DocParam[] = [];
  for (const p of (op.parameters ?? []) as Schema[]) {
    const where = p.in === "path" || p.in === "header" ? p.in : "query";
    out.push(row(String(p.name), where, (p.schema ?? {}) as Schema, p.required === true, d));
  }
  const content = (op.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
  const body = content?.["application/json"]?.schema as Schema | undefined;
  if (body) {
    const required = requiredOf(body);
    for (const [name, s] of properties(body)) out.push(row(name, "body", s, required.has(name), d));
  }
  return out;
}

/**
 * The parameters a request example sends: every required one, and where an endpoint requires none besides its
 * path, its first optional field, so that a write's example shows what a body looks like. Headers are the
 * samples' own business (Idempotency-Key is optional and stays out).
 */
export function exampleParamsOf(d: DocEndpoint): DocParam[] {
  const all = paramsOf(d).filter((p) => p.in !== "header");
  const chosen = all.filter((p) => p.required);
  if (!chosen.some((p) => p.in !== "path")) {
    const first = all.find((p) => !p.required && !p.file);
    if (first && d.method !== "GET" && d.method !== "DELETE") chosen.push(first);
  }
  return chosen;
}
