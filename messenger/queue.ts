/**
 * The calls a page queues before the loader has run, and the queues that stand in for them after. Sites copied
 * one of two carrotquest stubs, and both are in use:
 *   two-push:  carrotquest.x = function(){carrotquestasync.push("x", arguments)}           → "x", arguments, …
 *   one-tuple: carrotquest.x = function(){carrotquestasync.push(["x"].concat([].slice…))}   → ["x", …args], …
 * A queue may mix them (a site that changed its stub between deploys), so each entry is read by its own shape.
 * Relay's own stub queues each call's `arguments` on `Relay.q`: the one-tuple shape, as an `arguments` object, so
 * one reader serves both queues. No DOM here: unit tested in node.
 */
export type Call = (method: unknown, args: unknown[]) => void;

/** The JS API's methods: the loader serves each, and the install snippet's stub queues each. */
export const API_METHODS = [
  "connect",
  "auth",
  "identify",
  "track",
  "trackMessageInteraction",
  "open",
  "close",
  "onReady",
  "addCallback",
  "removeCallback",
] as const;
export type ApiMethod = (typeof API_METHODS)[number];

/** An `arguments` object or an array: a one-tuple entry, or the second half of a two-push one. */
function isArgs(x: unknown): x is ArrayLike<unknown> {
  return Array.isArray(x) || Object.prototype.toString.call(x) === "[object Arguments]";
}

/** Runs a queue's calls in order (carrotquest's or Relay's), whichever stub shape wrote each entry. */
export function replayQueue(queue: ArrayLike<unknown>, call: Call): void {
  for (let i = 0; i < queue.length; i++) {
    const entry = queue[i];
    if (isArgs(entry) && typeof entry[0] === "string") call(entry[0], Array.from(entry).slice(1));
    else if (typeof entry === "string") {
      // A name pushed without its arguments (a hand-written push("open")) takes none, and the next entry is
      // read on its own.
      const next = queue[i + 1];
      if (isArgs(next)) i++;
      call(entry, isArgs(next) ? Array.from(next) : []);
    } else console.warn("Relay: unreadable queued call", entry);
  }
}

/**
 * What replaces carrotquest's queue once loaded: a page's kept stubs (and pages that push by hand) still push onto
 * the global by name, and each push now runs at once. Relay's stub needs none: it is replaced whole and pushes
 * onto Relay.q only while it is the global.
 */
export function carrotQueue(call: Call): { push(...entries: unknown[]): number } {
  return {
    push(...entries) {
      replayQueue(entries, call);
      return 0;
    },
  };
}

/** trackMessageInteraction's types, carrotquest's names and ours, by the visitor endpoint each is recorded with. */
const INTERACTIONS = new Map<unknown, "read" | "click">([
  ["read", "read"],
  ["clicked", "click"],
  ["click", "click"],
]);

/**
 * carrotquest.trackMessageInteraction(sendingId, type) as the send's ID and the endpoint, or why it is refused, read
 * by the frame (the loader forwards the call as it came): the site's own code calls it with template-filled IDs, so
 * a bad one is a warning, never a throw on the site. "replied" has no endpoint here: a reply is the visitor's text,
 * which the messenger's own composer sends.
 */
export function messageInteraction(
  sendingId: unknown,
  type: unknown,
): { send: string; action: "read" | "click" } | { refused: string } {
  const send = typeof sendingId === "number" ? String(sendingId) : sendingId;
  if (typeof send !== "string" || !/^[1-9]\d{0,18}$/.test(send.trim()))
    return { refused: `${String(sendingId)} is not a sending ID` };
  const action = INTERACTIONS.get(type);
  if (!action) return { refused: `${String(type)} is not one of read, clicked` };
  return { send: send.trim(), action };
}
