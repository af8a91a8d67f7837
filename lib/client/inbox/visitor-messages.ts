import type { Part } from "./types";

/** New visitor messages, as the socket brings them: the Inbox's title count, desktop notification and sound. */
type Listener = (part: Part) => void;
const listeners = new Set<Listener>();

export function onVisitorMessage(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitVisitorMessage(part: Part): void {
  for (const l of listeners) l(part);
}
