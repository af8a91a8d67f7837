import { invalid } from "../domain/errors";
import { hasNul, parseDateTime } from "../user-model/prop-values";
import { parseEventProp, systemProp, type SystemPropDef } from "../user-model/system-props";
import {
  COND_TYPES,
  conditionTypesFor,
  MAX_CONDITIONS,
  MAX_DEPTH,
  valueKind,
  type CondType,
} from "./filter-grammar";

/**
 * The leads filter grammar's parser (DESIGN "Users, props, leads"; the grammar's data is in filter-grammar.ts): a
 * tree of and/or groups, up to MAX_DEPTH levels deep and MAX_CONDITIONS conditions in all. Parsing checks every
 * condition against its property's type, so a compiled filter never fails in SQL; errors name the offending field
 * by path (`filters.filters.2.value.value`).
 */

export type PropRef =
  | { kind: "system"; name: string; def: SystemPropDef }
  | { kind: "event"; name: string; typeId: bigint; part: "first" | "last" | "count" }
  | { kind: "custom"; name: string }
  | { kind: "segment" }
  | { kind: "tag" };

export type CondValue =
  | { kind: "none" }
  | { kind: "number"; n: number }
  | { kind: "numbers"; a: number; b: number }
  | { kind: "string"; s: string }
  | { kind: "date"; d: Date }
  | { kind: "dates"; a: Date; b: Date }
  | { kind: "segment"; id?: bigint; name?: string };

export interface Condition {
  kind: "cond";
  path: string;
  prop: PropRef;
  type: CondType;
  value: CondValue;
  /** A custom text contains: the prop's values that contain the text, when they are few (custom-keys.ts). */
  keys?: string[];
}
export interface Group {
  kind: "group";
  path: string;
  op: "and" | "or";
  items: (Group | Condition)[];
}

/** Which condition types a property accepts: typed props their own family, custom props (untyped JSON) all. */
function allowedTypes(prop: PropRef): readonly CondType[] {
  switch (prop.kind) {
    case "segment":
    case "tag":
      return conditionTypesFor(prop.kind);
    case "custom":
      return conditionTypesFor("untyped");
    case "event":
      return conditionTypesFor(prop.part === "count" ? "integer" : "datetime");
    case "system":
      return conditionTypesFor(prop.def.type);
  }
}

function propRef(name: unknown, path: string): PropRef {
  if (typeof name !== "string" || name.length === 0 || name.length > 255) {
    throw invalid({ [path]: "must be a property name of 1 to 255 characters" });
  }
  if (name === "$segment") return { kind: "segment" };
  if (name === "$tag") return { kind: "tag" };
  if (!name.startsWith("$")) return { kind: "custom", name };
  const def = systemProp(name);
  if (def) return { kind: "system", name, def };
  const ev = parseEventProp(name);
  if (ev) return { kind: "event", name, ...ev };
  throw invalid({ [path]: `${name} is not a system property, an event property or $segment/$tag` });
}

function num(v: unknown, path: string): number {
  const n = typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) throw invalid({ [path]: "must be a number" });
  // Beyond 2^53 a double may be a rounded integer, which would compare as another number.
  if (Math.abs(n) > Number.MAX_SAFE_INTEGER)
    throw invalid({ [path]: "must be within ±(2^53 - 1), where a number compares exactly" });
  return n;
}

function date(v: unknown, path: string): Date {
  const d = parseDateTime(v);
  if (!d) throw invalid({ [path]: "must be a Unix timestamp or an ISO 8601 date-time, years 1 to 9999" });
  return d;
}

function str(v: unknown, path: string): string {
  if (typeof v !== "string" || v.length > 255)
    throw invalid({ [path]: "must be a string of at most 255 characters" });
  return v;
}

function condValue(type: CondType, raw: unknown, path: string): CondValue {
  const kind = valueKind(type);
  if (kind === "none") return { kind: "none" };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw invalid({
      [path]: `must be an object: {"value": …}${type.endsWith("range") ? ' or {"value1": …, "value2": …}' : ""}`,
    });
  }
  const o = raw as Record<string, unknown>;
  if (kind === "numbers")
    return { kind: "numbers", a: num(o.value1, `${path}.value1`), b: num(o.value2, `${path}.value2`) };
  if (kind === "dates")
    return { kind: "dates", a: date(o.value1, `${path}.value1`), b: date(o.value2, `${path}.value2`) };
  const vp = `${path}.value`;
  if (kind === "number") return { kind: "number", n: num(o.value, vp) };
  if (kind === "days") {
    const n = num(o.value, vp);
    if (n < 0 || n > 36_500) throw invalid({ [vp]: "must be a number of days from 0 to 36500" });
    return { kind: "number", n };
  }
  if (kind === "date") return { kind: "date", d: date(o.value, vp) };
  if (kind === "segment") {
    const v = o.value;
    if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return { kind: "segment", id: BigInt(v) };
    if (typeof v === "string" && /^\d{1,18}$/.test(v.trim()))
      return { kind: "segment", id: BigInt(v.trim()) };
    if (typeof v === "string" && v.trim()) return { kind: "segment", name: str(v.trim(), vp) };
    throw invalid({ [vp]: "must be a segment ID or name" });
  }
  const s = str(o.value, vp);
  if (type === "tag" && (s.length === 0 || s.includes(",")))
    throw invalid({ [vp]: "must be a tag: 1 to 255 characters, no comma" });
  return { kind: "string", s };
}

/** Parses and checks a filters tree; an array is taken as an `and` group of its items. */
export function parseFilters(raw: unknown, field = "filters"): Group {
  if (hasNul(raw)) throw invalid({ [field]: "must not contain NUL characters" });
  let conditions = 0;
  const node = (v: unknown, path: string, depth: number): Group | Condition => {
    if (typeof v !== "object" || v === null)
      throw invalid({ [path]: "must be a group {type, filters} or a condition" });
    const o = v as Record<string, unknown>;
    if (Array.isArray(v) || o.type === "and" || o.type === "or") {
      if (depth > MAX_DEPTH) throw invalid({ [path]: `groups nest at most ${MAX_DEPTH} levels` });
      const items = Array.isArray(v) ? v : o.filters;
      if (!Array.isArray(items))
        throw invalid({ [`${path}.filters`]: "must be a list of conditions or groups" });
      const base = Array.isArray(v) ? path : `${path}.filters`;
      return {
        kind: "group",
        path,
        op: Array.isArray(v) ? "and" : (o.type as "and" | "or"),
        items: items.map((item, i) => node(item, `${base}.${i}`, depth + 1)),
      };
    }
    if (++conditions > MAX_CONDITIONS)
      throw invalid({ [path]: `filters hold at most ${MAX_CONDITIONS} conditions in all` });
    const prop = propRef(o.property_name, `${path}.property_name`);
    const type = o.type;
    if (typeof type !== "string" || !(COND_TYPES as readonly string[]).includes(type)) {
      throw invalid({
        [`${path}.type`]: `must be and, or, or a condition type: ${COND_TYPES.join(", ")}`,
      });
    }
    const allowed = allowedTypes(prop);
    if (!allowed.includes(type as CondType)) {
      const name = prop.kind === "segment" ? "$segment" : prop.kind === "tag" ? "$tag" : prop.name;
      throw invalid({
        [`${path}.type`]: `${type} does not apply to ${name}; use one of: ${allowed.join(", ")}`,
      });
    }
    return {
      kind: "cond",
      path,
      prop,
      type: type as CondType,
      value: condValue(type as CondType, o.value ?? {}, `${path}.value`),
    };
  };
  const root = node(raw, field, 1);
  return root.kind === "group" ? root : { kind: "group", path: field, op: "and", items: [root] };
}

/** Segment references in a tree, for loading them before compiling. */
export function segmentRefs(g: Group): Condition[] {
  return g.items.flatMap((n) => (n.kind === "group" ? segmentRefs(n) : n.prop.kind === "segment" ? [n] : []));
}
