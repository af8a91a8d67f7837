import { z } from "zod";

/**
 * Pieces of the response schemas every domain shares. Browser-safe (zod only): the panel infers its types from
 * the domains' schemas. They describe the JSON as sent; `id_as_string` sends every 64-bit integer as a string,
 * which is why an ID accepts both forms.
 */
export const id = z.union([z.number().int(), z.string().regex(/^\d+$/)]);
export type Id = z.infer<typeof id>;
/** Any other 64-bit integer column (a random_id): also a string under `id_as_string`, which converts them all. */
export const int64 = z.union([z.number().int(), z.string().regex(/^-?\d+$/)]);
/**
 * A schema's type as a serializer builds it: 64-bit integers are still bigints there, which the edge writes as
 * numbers (or strings). A serializer declaring it as its return type is checked against the schema.
 */
export type Serialized<T> = T extends number
  ? T | bigint
  : T extends readonly (infer U)[]
    ? Serialized<U>[]
    : T extends object
      ? { [K in keyof T]: Serialized<T[K]> }
      : T;
/** Unix seconds. */
export const seconds = z.number().int();
export const json = z.record(z.string(), z.unknown());
/**
 * Any JSON value (stored JSON columns); `unknown` to TypeScript, as the panel reads into it what it knows. One
 * shared instance with an ID: the OpenAPI document lists it once, in components, rather than nesting a recursive
 * definition in every response.
 */
export const jsonValue: z.ZodType<unknown> = z.json();
// Registered as it is (`.meta()` would name a copy, and the recursion inside would still point at the original).
z.globalRegistry.add(jsonValue, { id: "JsonValue" });
/** `data` of a write that answers nothing more. */
export const empty = z.strictObject({});

/** A page position: a JSON array of numbers (timestamps with microseconds, IDs). */
const position = z.array(z.union([z.number(), z.string()])).nullable();
export const v2PageMeta = z.strictObject({
  next_before_position: position.optional(),
  next_after_position: position.optional(),
});
export const v1PageMeta = z.strictObject({ next_after: z.union([z.string(), z.number()]).nullable() });

/** The operator as parts, notes and conversations name them. */
export const actor = z.strictObject({ id, name: z.string(), avatar: z.string(), type: z.literal("admin") });
