import { parse, stringify } from "lossless-json";

/**
 * JSON whose integers beyond ±(2^53 − 1) keep all their digits. JSON.parse rounds them to the nearest
 * double and Node 20 has no source-text access in its reviver, so bodies that may hold one are read by lossless-json,
 * which hands each number's source text over. Only text that may hold such a number takes that slower path: a run
 * of 16 digits (an integer part of 2^53 or more has one) or an exponent.
 */
const MAY_HOLD_LONG_INTEGER = /\d{16}|\d[eE]/;

/** Integers beyond this many digits are left to JSON.parse's double (and refused where an exact one matters). */
const MAX_DIGITS = 40;

/** The integer a JSON number's text denotes (`9007199254740993`, `12.0`, `1e20`), if it denotes one. */
export function integerOfNumberText(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, int = "", frac = "", exp = "0"] = m;
  let digits = (int + frac).replace(/^0+/, "");
  let scale = Number(exp) - frac.length;
  if (digits === "") return 0n;
  while (scale < 0 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    scale++;
  }
  if (scale < 0 || digits.length + scale > MAX_DIGITS) return undefined;
  return BigInt(sign + digits + "0".repeat(scale));
}

const unsafe = (n: bigint) => n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER);

/** A long integer's place while lossless-json builds the value: swapped by the reviver, which knows its holder. */
class LongInteger {
  constructor(readonly n: bigint) {}
}

function numberOf(text: string): unknown {
  const n = integerOfNumberText(text);
  return n !== undefined && unsafe(n) ? new LongInteger(n) : Number(text);
}

/** The exact integers behind the doubles of parsed parameters, by the object or array holding them and key. */
const exactByHolder = new WeakMap<object, Map<string, bigint>>();

/**
 * JSON text of request parameters as JSON.parse reads it, every integer beyond ±(2^53 − 1) a (rounded) double as
 * before, its exact value kept aside for `exactInteger`: code that asks for it (props operations) gets it, and the
 * rest of the API sees the values it always saw rather than bigints, which its JSON writers refuse (lib/domain/json.ts).
 * Throws a SyntaxError on malformed text. lossless-json also refuses an object repeating a key with different
 * values, where JSON.parse keeps the last: only on the slow path, so such a body is refused when it holds a long number.
 */
export function parseParamsJson(text: string): unknown {
  if (!MAY_HOLD_LONG_INTEGER.test(text)) return JSON.parse(text);
  return parse(
    text,
    function (this: unknown, key: string, value: unknown) {
      if (!(value instanceof LongInteger)) return value;
      const holder = this as object;
      const kept = exactByHolder.get(holder) ?? new Map<string, bigint>();
      kept.set(key, value.n);
      exactByHolder.set(holder, kept);
      return Number(value.n);
    },
    numberOf,
  );
}

/** The exact integer parseParamsJson read at `holder[key]`, when the double there is a rounded long integer. */
export function exactInteger(holder: unknown, key: string | number): bigint | undefined {
  if (typeof holder !== "object" || holder === null) return undefined;
  return exactByHolder.get(holder)?.get(String(key));
}

/** JSON text the application wrote itself (stored props): integers beyond ±(2^53 − 1) as bigints. */
export function parseExactJson(text: string): unknown {
  if (!MAY_HOLD_LONG_INTEGER.test(text)) return JSON.parse(text);
  return parse(text, null, (s) => {
    const n = integerOfNumberText(s);
    return n !== undefined && unsafe(n) ? n : Number(s);
  });
}

/** JSON text of a value that may hold bigints, written with all their digits (JSON.stringify throws on them). */
export function stringifyExact(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError("not a JSON value");
  return text;
}
