/**
 * How bigints serialize while toJson runs: as numbers, or as strings for `id_as_string` callers. Outside it the
 * bigint itself is returned, which leaves JSON.stringify as it was: a replacer (Prisma has some) still sees the
 * bigint, and without one it is the usual TypeError, so no other code starts writing rounded numbers silently.
 *
 * A `toJSON` on BigInt's prototype rather than a replacer: JSON.stringify calls a replacer for every key of every
 * object, which the list profiles of the bench showed as a visible share of a request's CPU. Defined once per process with one state, whichever copy of this module
 * loads first: route bundles carry copies of their own. (On globalThis by hand, as lib/config/process-wide.ts does:
 * lib/domain imports nothing of the project.)
 */
type State = { mode: "outside" | "number" | "string"; digits?: boolean };
const KEY = Symbol.for("relay.json.bigints");
const holder = globalThis as { [KEY]?: State };
const state = (holder[KEY] ??= (() => {
  const s: State = { mode: "outside" };
  Object.defineProperty(BigInt.prototype, "toJSON", {
    configurable: true,
    writable: true,
    value(this: bigint) {
      return s.mode === "outside" ? this : s.mode === "string" ? this.toString() : Number(this);
    },
  });
  return s;
})());

const DIGITS = "\u0000json-integer:";
const DIGITS_WRITTEN = /"\\u0000json-integer:(-?\d+)"/g;

/**
 * An integer that toJson writes as a JSON number with all its digits, in both modes: a custom prop beyond 2^53,
 * which `id_as_string` leaves alone as it is not an ID. JSON.stringify has no raw output in node 20, so
 * toJSON returns a string marked by a NUL (which no stored text holds: the edge refuses it and PostgreSQL cannot
 * store it) and toJson takes the quotes off afterwards. Outside toJson it is the bigint, which JSON.stringify refuses.
 */
export class JsonInteger {
  constructor(readonly value: bigint) {}
  toJSON(): unknown {
    if (state.mode === "outside") return this.value;
    state.digits = true;
    return DIGITS + this.value.toString();
  }
}

/**
 * JSON text of a value holding 64-bit integers (bigints): as numbers, or as strings for `id_as_string` callers.
 * The API's envelopes, the event log's payloads and webhook bodies are all written by it.
 */
export function toJson(body: unknown, idAsString: boolean): string {
  const was = state.mode;
  const hadDigits = state.digits;
  state.mode = idAsString ? "string" : "number";
  state.digits = false;
  try {
    const text = JSON.stringify(body);
    return state.digits ? text.replace(DIGITS_WRITTEN, "$1") : text;
  } finally {
    state.mode = was;
    state.digits = hadDigits;
  }
}
