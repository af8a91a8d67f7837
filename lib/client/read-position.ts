/**
 * Where the panel's first subscription resumes. The server sends with every answer its real-time position as of
 * the request's reads (X-Event-Position: every event up to it is reflected in that answer). The lowest one read
 * before the socket subscribes is where it resumes from, so an event committed between a page's first reads and
 * its subscription still arrives (the cache handlers skip what it already reflects). Once subscribed, an answer
 * that was read before the subscription began (it was in flight) asks for a replay from its position.
 */
let lowest: bigint | undefined;
let behind: ((position: bigint) => void) | undefined;

export function noteReadPosition(header: string | null): void {
  if (header === null || !/^\d{1,19}$/.test(header)) return;
  const p = BigInt(header);
  if (behind) behind(p);
  else if (lowest === undefined || p < lowest) lowest = p;
}

/** The lowest position read while not subscribed, forgotten once taken. */
export function takeReadPosition(): bigint | undefined {
  const p = lowest;
  lowest = undefined;
  return p;
}

/** While a subscription is live, positions go to `listener` instead. */
export function onReadPosition(listener: ((position: bigint) => void) | undefined): void {
  behind = listener;
}
