/**
 * How bigints serialize while toJson runs: as numbers, or as strings for `id_as_string` callers. Outside it the
 * bigint itself is returned, which leaves JSON.stringify as it was: a replacer (Prisma has some) still sees the
 * bigint, and without one it is the usual TypeError, so no other code starts writing rounded numbers silently.
 *
 * A `toJSON` on BigInt's prototype rather than a replacer: JSON.stringify calls a replacer for every key of every
 * object, and a page of 20 conversations took 166 µs that way against 56 µs (node 20; #20's list profile had
 * toJson at 7% of the request's CPU). Defined once per process with one state, whichever copy of this module
 * loads first: route bundles carry copies of their own. (On globalThis by hand, as lib/config/process-wide.ts does:
 * lib/domain imports nothing of the project.)
 */
type State = { mode: "outside" | "number" | "string" };
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

/**
 * JSON text of a value holding 64-bit integers (bigints): as numbers, or as strings for `id_as_string` callers.
 * The API's envelopes, the event log's payloads and webhook bodies are all written by it.
 */
export function toJson(body: unknown, idAsString: boolean): string {
  const was = state.mode;
  state.mode = idAsString ? "string" : "number";
  try {
    return JSON.stringify(body);
  } finally {
    state.mode = was;
  }
}
