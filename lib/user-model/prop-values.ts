import { parseExactJson, stringifyExact } from "../domain/exact-json";
import { JsonInteger } from "../domain/json";
import type { SystemPropType } from "./system-props";

/**
 * What a custom prop may hold (DESIGN: string ≤255, integer, float, boolean, list ≤30 strings). Integers are 64-bit
 * (the spec's "long integers"); those beyond ±(2^53 − 1), which a double cannot hold, are bigints, the others numbers.
 */
export type CustomValue = string | number | bigint | boolean | string[];
export type SystemValue = string | number | Date | null;

export const MAX_STRING = 255;
export const MAX_LIST = 30;
export const MIN_INT = -(2n ** 63n);
export const MAX_INT = 2n ** 63n - 1n;
export const INT_RANGE = "-2^63 to 2^63-1";
export const MAX_SESSIONS = 2 ** 31 - 1;

/** An integer within the 64-bit range as a custom prop holds it (a number where a double is exact), or Refused. */
export function customInteger(n: bigint): number | bigint | Refused {
  if (n < MIN_INT || n > MAX_INT) return refuse(`integers are within ${INT_RANGE}`);
  return n >= -BigInt(Number.MAX_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** PostgreSQL stores no NUL character in text or JSON; values holding one are refused before they get there. */
export function hasNul(v: unknown): boolean {
  return JSON.stringify(v)?.includes("\\u0000") ?? false;
}

/** A refusal with the reason reported to the caller. */
export class Refused {
  constructor(readonly reason: string) {}
}

function refuse(reason: string) {
  return new Refused(reason);
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

// Years 1 to 9999 (UTC): what both a PostgreSQL timestamp and the canonical "YYYY-MM-DDTHH:MM:SS" text can hold.
const MIN_TIME = Date.parse("0001-01-01T00:00:00Z");
const MAX_TIME = Date.parse("9999-12-31T23:59:59.999Z");

/** ISO 8601 (no offset means UTC) or Unix seconds; a Date when valid and within the years 1 to 9999. */
export function parseDateTime(v: unknown): Date | undefined {
  const d = parseAnyDateTime(v);
  return d && d.getTime() >= MIN_TIME && d.getTime() <= MAX_TIME ? d : undefined;
}

function parseAnyDateTime(v: unknown): Date | undefined {
  if (typeof v === "number")
    return Number.isFinite(v) && Math.abs(v) < 1e11 ? new Date(Math.round(v * 1000)) : undefined;
  if (typeof v !== "string") return undefined;
  const s = v.trim();
  if (/^-?\d{1,11}(\.\d+)?$/.test(s)) return parseAnyDateTime(Number(s));
  const m = ISO.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", sec = "00", frac, tz] = m;
  const base = `${y}-${mo}-${d}T${h}:${mi}:${sec}${frac ? "." + frac.slice(0, 3) : ""}`;
  const offset = !tz || tz === "Z" ? "Z" : tz.length === 5 ? `${tz.slice(0, 3)}:${tz.slice(3)}` : tz;
  const date = new Date(base + offset);
  if (Number.isNaN(date.getTime())) return undefined;
  // `Date` rolls 2024-02-31 over to March; a date that does not round-trip was not a real one.
  if (offset === "Z" && date.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return undefined;
  return date;
}

/** Custom date-times are stored as UTC strings of one fixed shape, so that they compare and sort as text. */
export function canonicalDateTime(d: Date): string {
  return d.toISOString().slice(0, 19);
}

/** The value a typed system prop takes, or why it does not. */
export function coerceSystem(type: SystemPropType, v: unknown, name: string): SystemValue | Refused {
  if (v === null || v === undefined || v === "")
    return refuse("empty value (use op delete to remove a property)");
  if (type === "string") {
    if (typeof v !== "string") return refuse(`${name} is a string property`);
    const s = v.trim();
    if (s === "") return refuse("empty value (use op delete to remove a property)");
    if (s.length > MAX_STRING) return refuse(`${name} is at most ${MAX_STRING} characters`);
    if (name === "$email" && !/^[^\s@]+@[^\s@]+$/.test(s)) return refuse("$email is not an email address");
    return s;
  }
  if (type === "integer") {
    if (typeof v === "bigint") return refuse(`${name} must be between 0 and ${MAX_SESSIONS}`);
    const n = typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
    if (typeof n !== "number" || !Number.isInteger(n)) return refuse(`${name} is an integer property`);
    if (n < 0 || n > MAX_SESSIONS) return refuse(`${name} must be between 0 and ${MAX_SESSIONS}`);
    return n;
  }
  const d = parseDateTime(v);
  return d ?? refuse(`${name} is a date-time property (ISO 8601 or Unix seconds, years 1 to 9999)`);
}

/**
 * Type detection for custom props given as strings (`parse_custom_props_type`): integers (without leading zeros, so
 * codes like "007" stay text), floats, booleans and date-times; anything else stays a string.
 */
export function detectType(s: string): CustomValue {
  const t = s.trim();
  if (/^-?(0|[1-9]\d*)$/.test(t)) {
    // Beyond 64 bits the digits stay text, as codes of many digits are.
    const n = customInteger(BigInt(t));
    return n instanceof Refused ? s : n;
  }
  if (/^-?(0|[1-9]\d*)\.\d+$/.test(t)) return Number(t);
  if (/^(true|false)$/i.test(t)) return t.toLowerCase() === "true";
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) {
    const d = parseDateTime(t);
    if (d) return canonicalDateTime(d);
  }
  return s;
}

/** The value a custom prop takes, or why it does not. */
export function coerceCustom(v: unknown, parseTypes: boolean): CustomValue | Refused {
  if (v === null || v === undefined || v === "")
    return refuse("empty value (use op delete to remove a property)");
  if (typeof v === "string") {
    if (v.length > MAX_STRING) return refuse(`strings are at most ${MAX_STRING} characters`);
    return parseTypes ? detectType(v) : v;
  }
  if (typeof v === "boolean") return v;
  if (typeof v === "bigint") return customInteger(v);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return refuse("numbers must be finite");
    // A double this large may be a rounded integer: where its digits were kept, the caller passes the bigint.
    if (Number.isInteger(v) && !Number.isSafeInteger(v))
      return refuse(
        `integers beyond ±2^53 need all their digits (a JSON integer or a string), within ${INT_RANGE}`,
      );
    return v;
  }
  if (Array.isArray(v)) return coerceList(v);
  return refuse("objects are not a property type (use a string, number, boolean or list of strings)");
}

export function coerceList(v: unknown[]): string[] | Refused {
  if (v.length > MAX_LIST) return refuse(`lists hold at most ${MAX_LIST} items`);
  for (const item of v) {
    if (typeof item !== "string") return refuse("lists hold strings only");
    if (item.length > MAX_STRING) return refuse(`list items are at most ${MAX_STRING} characters`);
  }
  return v as string[];
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

/** A prop's value as a string (`convert_props_types=false`); lists keep their items. */
export function asString(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(String);
  if (v === null || v === undefined || typeof v === "string") return v;
  return typeof v === "number" || typeof v === "boolean" || typeof v === "bigint"
    ? String(v)
    : JSON.stringify(v);
}

/** Every value of a props object as a string (`convert_props_types=false`). */
export function propsAsStrings(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, asString(v)]));
}

/** A prop's value as the API writes it: an integer beyond 2^53 as a JSON number with all its digits. */
export function jsonOfProp(v: unknown): unknown {
  return typeof v === "bigint" ? new JsonInteger(v) : v;
}

/** Custom props as the API writes them (jsonOfProp of each value). */
export function jsonOfCustomProps(props: Record<string, unknown>): Record<string, unknown> {
  for (const v of Object.values(props)) {
    if (typeof v === "bigint")
      return Object.fromEntries(Object.entries(props).map(([k, x]) => [k, jsonOfProp(x)]));
  }
  return props;
}

/** `users.props_custom` as JSON text for the database, long integers with all their digits. */
export function customPropsJson(props: Record<string, CustomValue>): string {
  return Object.values(props).some((v) => typeof v === "bigint")
    ? stringifyExact(props)
    : JSON.stringify(props);
}

/** `users.props_custom` read as text (`props_custom::text`), long integers as bigints. */
export function parseCustomProps(text: string | null | undefined): Record<string, CustomValue> {
  const v = text ? parseExactJson(text) : null;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, CustomValue>) : {};
}
