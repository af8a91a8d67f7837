import { exactInteger } from "../domain/exact-json";
import { parseEventProp, systemProp } from "../user-model/system-props";
import {
  coerceCustom,
  coerceList,
  coerceSystem,
  customInteger,
  hasNul,
  jsonOfProp,
  MAX_LIST,
  MAX_SESSIONS,
  MAX_STRING,
  Refused,
  sameValue,
  type CustomValue,
  type SystemValue,
} from "../user-model/prop-values";

export const OPS = ["update_or_create", "set_once", "add", "delete", "append", "union", "exclude"] as const;
export type Op = (typeof OPS)[number];
export const MAX_OPERATIONS = 250;

/** A user's props as operations see them: system props by `$` name, custom props by key. */
export interface PropsState {
  system: Record<string, SystemValue>;
  custom: Record<string, CustomValue>;
}

export interface IgnoredOperation {
  op: unknown;
  key: unknown;
  value?: unknown;
  reason: string;
}

export interface OpsResult {
  state: PropsState;
  /** Props whose value differs after all operations. */
  affected: string[];
  /** Props that valid operations touched but that ended as they began. */
  notChanged: string[];
  ignored: IgnoredOperation[];
  /** Valid operations that left their prop as it was (v1 reports them among the ignored). */
  noop: IgnoredOperation[];
}

const LIST_OPS: readonly Op[] = ["append", "union", "exclude"];

function isOp(v: unknown): v is Op {
  return typeof v === "string" && (OPS as readonly string[]).includes(v);
}

/**
 * Applies the operations in order to a copy of `initial`. An invalid operation is reported with its reason and
 * skipped; the others apply. Pure: the caller persists the resulting state.
 */
export function applyOperations(
  initial: PropsState,
  ops: readonly unknown[],
  opts: { parseTypes: boolean },
): OpsResult {
  const state: PropsState = { system: { ...initial.system }, custom: { ...initial.custom } };
  const ignored: IgnoredOperation[] = [];
  const noop: IgnoredOperation[] = [];
  const touched = new Set<string>();

  for (const raw of ops) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      ignored.push({ op: null, key: null, value: raw, reason: "an operation is an object {op, key, value}" });
      continue;
    }
    const { op, key } = raw as { op?: unknown; key?: unknown; value?: unknown };
    // A JSON integer beyond 2^53 as sent, not as the double JSON.parse rounds it to.
    const value = exactInteger(raw, "value") ?? (raw as { value?: unknown }).value;
    const report = (reason: string) =>
      ignored.push({ op: op ?? null, key: key ?? null, value: jsonOfProp(value), reason });
    if (hasNul(raw)) {
      report("contains a NUL character");
      continue;
    }
    if (!isOp(op)) {
      report(`unknown op; use one of: ${OPS.join(", ")}`);
      continue;
    }
    if (typeof key !== "string" || key.length === 0 || key.length > MAX_STRING) {
      report(`key must be a string of 1 to ${MAX_STRING} characters`);
      continue;
    }
    const outcome = key.startsWith("$")
      ? applySystem(state, op, key, value)
      : applyCustom(state, op, key, value, opts);
    if (outcome instanceof Refused) {
      report(outcome.reason);
      continue;
    }
    touched.add(key);
    if (!outcome) noop.push({ op, key, value: jsonOfProp(value), reason: "changed nothing" });
  }

  const affected: string[] = [];
  const notChanged: string[] = [];
  for (const key of touched) {
    const before = key.startsWith("$") ? initial.system[key] : initial.custom[key];
    const after = key.startsWith("$") ? state.system[key] : state.custom[key];
    (sameValue(before ?? null, after ?? null) ? notChanged : affected).push(key);
  }
  return { state, affected, notChanged, ignored, noop };
}

/**
 * `a + b` as `add` stores it: integers exactly within 64 bits (bigints beyond 2^53), fractions as doubles, refused
 * where a double would round an integer (a fraction added to an integer beyond 2^53, or a sum leaving ±2^53).
 */
function sum(a: number | bigint, b: number | bigint): number | bigint | Refused {
  const whole = (x: number | bigint) => typeof x === "bigint" || Number.isInteger(x);
  if (whole(a) && whole(b)) return customInteger(BigInt(a) + BigInt(b));
  if (typeof a === "bigint" || typeof b === "bigint")
    return new Refused("a fraction added to an integer beyond ±2^53 cannot be held exactly");
  const next = a + b;
  if (!Number.isFinite(next)) return new Refused("the sum must be finite");
  if (Number.isInteger(next) && !Number.isSafeInteger(next)) return new Refused("the sum leaves ±2^53");
  return next;
}

/** true: the value changed; false: a valid no-op; Refused: invalid. */
type Outcome = boolean | Refused;

function applySystem(state: PropsState, op: Op, key: string, value: unknown): Outcome {
  const def = systemProp(key);
  if (!def) {
    return new Refused(
      parseEventProp(key) ? "event properties are read-only" : `unknown system property ${key}`,
    );
  }
  if (def.readOnly) return new Refused(`${key} is read-only`);
  const current = state.system[key] ?? null;
  if (LIST_OPS.includes(op)) return new Refused(`${op} needs a list property; ${key} is a ${def.type}`);
  if (op === "delete") {
    const next = def.type === "integer" ? 0 : null;
    state.system[key] = next;
    return !sameValue(current, next);
  }
  if (op === "add") {
    if (def.type !== "integer") return new Refused(`add needs a numeric property; ${key} is a ${def.type}`);
    const delta =
      typeof value === "number"
        ? value
        : typeof value === "string" && /^\s*-?\d+\s*$/.test(value)
          ? Number(value)
          : NaN;
    if (!Number.isInteger(delta)) return new Refused(`add on ${key} needs an integer value`);
    const next = (typeof current === "number" ? current : 0) + delta;
    if (next < 0 || next > MAX_SESSIONS) return new Refused(`${key} would leave 0 to ${MAX_SESSIONS}`);
    state.system[key] = next;
    return delta !== 0;
  }
  const next = coerceSystem(def.type, value, key);
  if (next instanceof Refused) return next;
  if (op === "set_once" && current !== null) return false;
  state.system[key] = next;
  return !sameValue(current, next);
}

function applyCustom(
  state: PropsState,
  op: Op,
  key: string,
  value: unknown,
  opts: { parseTypes: boolean },
): Outcome {
  const current = Object.hasOwn(state.custom, key) ? state.custom[key] : undefined;
  switch (op) {
    case "delete":
      if (current === undefined) return false;
      delete state.custom[key];
      return true;
    case "update_or_create":
    case "set_once": {
      const next = coerceCustom(value, opts.parseTypes);
      if (next instanceof Refused) return next;
      if (op === "set_once" && current !== undefined) return false;
      state.custom[key] = next;
      return !sameValue(current, next);
    }
    case "add": {
      const delta = coerceCustom(value, true);
      if (delta instanceof Refused) return delta;
      if (typeof delta !== "number" && typeof delta !== "bigint")
        return new Refused("add needs a number value");
      if (current !== undefined && typeof current !== "number" && typeof current !== "bigint")
        return new Refused(`add needs a numeric property; ${key} is not a number`);
      const next = sum(current ?? 0, delta);
      if (next instanceof Refused) return next;
      state.custom[key] = next;
      return next !== current;
    }
    default: {
      const items = coerceList(typeof value === "string" ? [value] : Array.isArray(value) ? value : [null]);
      if (items instanceof Refused)
        return new Refused(`${op} needs a string or a list of strings: ${items.reason}`);
      if (items.length === 0 && Array.isArray(value)) return false;
      if (current !== undefined && !Array.isArray(current))
        return new Refused(`${op} needs a list property; ${key} is not a list`);
      const list = current ?? [];
      let next: string[];
      if (op === "append") next = [...list, ...items];
      else if (op === "union")
        next = [...list, ...items.filter((x, i) => !list.includes(x) && items.indexOf(x) === i)];
      else next = list.filter((x) => !items.includes(x));
      if (next.length > MAX_LIST) return new Refused(`lists hold at most ${MAX_LIST} items`);
      if (op === "exclude" && current === undefined) return false;
      state.custom[key] = next;
      return !sameValue(current, next);
    }
  }
}
