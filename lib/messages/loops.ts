import type { Trigger } from "./schemas";

/** A chain that comes back to its start within this long is a loop: a user would get message after message. */
export const LOOP_WINDOW_SECONDS = 30;

export interface ChainLink {
  id: bigint;
  name: string;
  trigger: Trigger;
  timeoutSeconds: number;
}

/** Whether `to` is triggered by the events of `from`: a message event of any message, or of `from` by ID. */
const triggers = (from: ChainLink, to: ChainLink) =>
  to.trigger.event.startsWith("$message_") &&
  (to.trigger.message === undefined || to.trigger.message === from.id);

/**
 * The shortest chain from `start` back to itself whose timeouts add up to less than LOOP_WINDOW_SECONDS, as the
 * messages along it (start first), or null. `links` are the app's messages that can send (not archived), with
 * `start` as it is being saved.
 */
export function findLoop(start: ChainLink, links: ChainLink[]): ChainLink[] | null {
  const all = [start, ...links.filter((l) => l.id !== start.id)];
  // Breadth-first over (message, elapsed): chains are short, and the window bounds them.
  let frontier: { at: ChainLink; elapsed: number; path: ChainLink[] }[] = [
    { at: start, elapsed: 0, path: [start] },
  ];
  for (let depth = 0; depth < all.length && frontier.length; depth++) {
    const next: typeof frontier = [];
    for (const f of frontier) {
      for (const to of all) {
        if (!triggers(f.at, to)) continue;
        const elapsed = f.elapsed + to.timeoutSeconds;
        if (elapsed >= LOOP_WINDOW_SECONDS) continue;
        if (to.id === start.id) return f.path;
        if (!f.path.some((p) => p.id === to.id)) next.push({ at: to, elapsed, path: [...f.path, to] });
      }
    }
    frontier = next;
  }
  return null;
}

/** The loop as an error names it: "A → B → A". */
export const loopText = (path: ChainLink[]) =>
  [...path, path[0]!].map((m) => `"${m.name}" (${m.id})`).join(" → ");
