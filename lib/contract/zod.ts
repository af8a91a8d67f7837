import { z } from "zod";
import { parseParamsJson } from "../domain/exact-json";
import { DAY_PROBLEM, parseDay } from "./dates";

/**
 * Parameter schemas for values that arrive as strings (query, form) or typed (JSON). Each carries the OpenAPI type
 * it documents, since preprocessing hides it from the JSON Schema generator.
 */
// A repeated query or form parameter arrives as a list of strings: the last one wins. Empty lists stay lists.
const lastOf = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string") ? v[v.length - 1] : v;

function bool() {
  return z
    .preprocess(
      (raw) => {
        const v = lastOf(raw);
        if (typeof v === "string") return !["false", "0", ""].includes(v.trim().toLowerCase());
        if (typeof v === "number") return v !== 0;
        return v;
      },
      z.boolean({ error: "must be a boolean" }),
    )
    .meta({ type: "boolean" });
}

function toNumber(raw: unknown): unknown {
  const v = lastOf(raw);
  if (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return v;
}

function int(opts: { min?: number; max?: number } = {}) {
  let s = z.number({ error: "must be an integer" }).int({ error: "must be an integer" });
  s = s.min(opts.min ?? Number.MIN_SAFE_INTEGER, {
    error: `must be at least ${opts.min ?? Number.MIN_SAFE_INTEGER}`,
  });
  s = s.max(opts.max ?? Number.MAX_SAFE_INTEGER, {
    error: `must be at most ${opts.max ?? Number.MAX_SAFE_INTEGER}`,
  });
  return z.preprocess(toNumber, s).meta({ type: "integer", minimum: opts.min, maximum: opts.max });
}

function num() {
  return z.preprocess(toNumber, z.number({ error: "must be a number" }).finite()).meta({ type: "number" });
}

/** The largest ID PostgreSQL's bigint holds: a larger one would fail the query (and every query batched with it). */
const MAX_ID = 2n ** 63n - 1n;

/** A string of digits as an ID (1 to 2^63-1), or undefined: for code that takes IDs out of strings itself. */
export function parseId(s: string): bigint | undefined {
  const t = s.trim();
  if (!/^\d{1,19}$/.test(t)) return undefined;
  const n = BigInt(t);
  return n >= 1n && n <= MAX_ID ? n : undefined;
}

/** A 64-bit ID: a positive integer, as a number or a string of digits. */
function id(opts: { allowZero?: boolean } = {}) {
  return z
    .preprocess(
      (raw) => {
        const v = lastOf(raw);
        if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
        if (typeof v === "string" && /^\s*\d{1,19}\s*$/.test(v)) return BigInt(v.trim());
        return v;
      },
      z
        .bigint({ error: "must be an ID (a positive integer)" })
        .min(opts.allowZero ? 0n : 1n, {
          error: opts.allowZero ? "must be 0 or an ID" : "must be a positive ID",
        })
        .max(MAX_ID, { error: "is too large for an ID" }),
    )
    .meta({ type: ["integer", "string"], format: "int64" });
}

const APP_IDS = new WeakSet<z.ZodType>();

/** An app's ID: the only kind of parameter where `$self_app` stands for the caller's app (endpoint() puts it in). */
function appId() {
  const s = id().meta({
    type: ["integer", "string"],
    format: "int64",
    description: "an app ID, or `$self_app` for the token's (or operator's) app",
  });
  APP_IDS.add(s);
  return s;
}

/** The top-level parameters of an object schema declared with `p.appId()` (optional or not). */
export function appIdFields(schema: z.ZodType): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, s]) => APP_IDS.has(unwrapOptional(s)))
    .map(([k]) => k);
}

// `.partial()` wraps an optional parameter again.
function unwrapOptional(s: z.ZodType): z.ZodType {
  return s instanceof z.ZodOptional ? unwrapOptional(s.unwrap() as z.ZodType) : s;
}

function str(opts: { min?: number; max?: number; trim?: boolean } = {}) {
  let s = z.string({ error: "must be a string" });
  if (opts.min !== undefined) s = s.min(opts.min, { error: `must be at least ${opts.min} characters` });
  if (opts.max !== undefined) s = s.max(opts.max, { error: `must be at most ${opts.max} characters` });
  return z
    .preprocess((raw) => {
      const v = lastOf(raw);
      if (typeof v === "number" || typeof v === "boolean") return String(v);
      return typeof v === "string" && opts.trim ? v.trim() : v;
    }, s)
    .meta({ type: "string", minLength: opts.min, maxLength: opts.max });
}

/** A calendar day, YYYY-MM-DD within the years 1 to 9999 (lib/contract/dates.ts): every day parameter's schema. */
function day() {
  return z
    .preprocess(
      (raw) => {
        const v = lastOf(raw);
        return typeof v === "string" ? v.trim() : v;
      },
      z.string({ error: DAY_PROBLEM }).refine((s) => parseDay(s) !== undefined, { error: DAY_PROBLEM }),
    )
    .meta({ type: "string", format: "date" });
}

const MAX_DEPTH = 32;

/** How deep a JSON value nests, without recursion (a hostile value can nest thousands of levels). */
function depthOf(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== "object" || x === null) continue;
    if (d > max) max = d;
    if (max > MAX_DEPTH) return max;
    for (const y of Object.values(x)) stack.push([y, d + 1]);
  }
  return max;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL cannot store, refused up front wherever it is nested: NUL (in text or JSON), and lone UTF-16
 * surrogates (JSON may escape them, `"\ud800"`; a JSON column refuses them). The endpoint checks its raw input
 * with it; JSON-encoded parameters are checked again once decoded, for surrogates only (`nul: false`): a NUL
 * there is each parameter's own rule (an operation holding one is ignored, not the whole request refused).
 */
export function findBadText(
  v: unknown,
  opts: { nul?: boolean } = {},
): { path: string; problem: string } | undefined {
  const keys: string[] = [];
  const problem = badText(v, opts.nul !== false, keys, 0);
  // The path is joined only for a refusal: built for every key, it was most of this check's cost on big inputs.
  return problem === undefined ? undefined : { path: keys.join(".") || "params", problem };
}

/** The problem of `v`, with `keys` left holding its path (its container's, for a bad key). */
function badText(v: unknown, nul: boolean, keys: string[], depth: number): string | undefined {
  if (typeof v === "string") {
    if (nul && v.includes("\u0000")) return "must not contain NUL characters";
    if (LONE_SURROGATE.test(v)) return "must be valid Unicode (a lone surrogate)";
    return undefined;
  }
  if (depth > 64 || typeof v !== "object" || v === null || v instanceof File) return undefined;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    if ((nul && k.includes("\u0000")) || LONE_SURROGATE.test(k))
      return "keys must be valid Unicode without NUL";
    keys.push(k);
    const found = badText((v as Record<string, unknown>)[k], nul, keys, depth + 1);
    if (found !== undefined) return found;
    keys.pop();
  }
  return undefined;
}

/** JSON text decoded, or an issue (malformed, or holding lone surrogates). */
function decodeJson(text: string, ctx: z.RefinementCtx, malformed: string): unknown {
  let v: unknown;
  try {
    v = parseParamsJson(text);
  } catch {
    ctx.addIssue({ code: "custom", message: malformed });
    return z.NEVER;
  }
  const bad = findBadText(v, { nul: false });
  if (bad !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: bad.path === "params" ? bad.problem : `${bad.path}: ${bad.problem}`,
    });
    return z.NEVER;
  }
  return v;
}

/** A JSON-encoded value (arrays and objects arrive as strings in query and form bodies). */
function json<T extends z.ZodType>(schema: T) {
  return z.preprocess((raw, ctx) => {
    let v = lastOf(raw);
    if (typeof v === "string") {
      v = decodeJson(v, ctx, "must be valid JSON");
      if (v === z.NEVER) return v;
    }
    if (depthOf(v) > MAX_DEPTH) {
      ctx.addIssue({ code: "custom", message: `must not nest deeper than ${MAX_DEPTH} levels` });
      return z.NEVER;
    }
    return v;
  }, schema);
}

/** A flat list: a JSON array, a comma-separated string, or a repeated parameter. */
function list<T extends z.ZodType>(item: T, opts: { max?: number } = {}) {
  let arr = z.array(item, { error: "must be a list" });
  if (opts.max !== undefined) arr = arr.max(opts.max, { error: `must have at most ${opts.max} items` });
  return z
    .preprocess((raw, ctx) => {
      if (Array.isArray(raw))
        return raw.length === 1 && typeof raw[0] === "string" ? splitList(raw[0], ctx) : raw;
      if (typeof raw === "string") return splitList(raw, ctx);
      return raw;
    }, arr)
    .meta({ type: "array", description: "JSON array or comma-separated" });
}

function splitList(v: string, ctx: z.RefinementCtx): unknown {
  const t = v.trim();
  if (t.startsWith("[")) return decodeJson(t, ctx, "must be a JSON array or a comma-separated list");
  return t === "" ? [] : t.split(",").map((s) => s.trim());
}

function file() {
  return z
    .preprocess(lastOf, z.instanceof(File, { error: "must be a file (multipart/form-data)" }))
    .meta({ type: "string", format: "binary" });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .preprocess(lastOf, z.enum(values, { error: `must be one of: ${values.join(", ")}` }))
    .meta({ type: "string", enum: [...values] });
}

export const p = { bool, int, num, id, appId, str, day, json, list, file, oneOf };

/**
 * `{ "field.path": "message" }` for `error_fields`. Parse with `{ reportInput: true }`: zod leaves the input out of
 * its issues otherwise, and every wrong value would read "is required".
 */
export function zodFields(err: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "params";
    if (out[key]) continue;
    out[key] = issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
  }
  return out;
}
