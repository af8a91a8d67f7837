/**
 * Messages between the loader (on the host page) and the frame (our origin). Each carries the tag, so the other
 * postMessage traffic of a host page is told apart; each side also checks who sent it (loader: our origin and the
 * frame's window; frame: its parent window).
 */
import type { VisitorMessage } from "../lib/messenger/visitor-schemas";

export const TAG = "relay-messenger";

/** The host page as the frame reports it (heartbeats): the frame cannot read its parent's location. */
export interface HostPage {
  url: string;
  referrer: string;
  title: string;
}

/**
 * A chat message or pop-up the launcher previews while the messenger is closed: the newest one the visitor has not
 * seen yet (messenger/frame/auto-messages.ts). IDs as numbers, as the frame holds them.
 */
export type Preview = Pick<VisitorMessage, "kind" | "sender" | "title" | "body"> & { send: number };

export type ToFrame =
  /**
   * Sent on each load of the frame: the frame learns the host page's origin from it and answers "ready"; `page`
   * is the host page (older loaders send none).
   */
  | { tag: typeof TAG; type: "hello"; page?: HostPage }
  /** The host page's URL changed without a load (a single-page site's history.pushState, back, a new hash). */
  | { tag: typeof TAG; type: "page"; page: HostPage }
  /** The messenger was shown: focus goes inside (and operators' replies shown count as read). */
  | { tag: typeof TAG; type: "open" }
  /** The messenger was hidden by the loader (launcher, Escape on the host page, JS API). */
  | { tag: typeof TAG; type: "closed" }
  /** A JS API call the loader does not serve itself (auth, identify, track, connect's settings). */
  | { tag: typeof TAG; type: "call"; method: string; args: unknown[] }
  /**
   * The host page was opened from an emailed reply's link (`#relay-conversation=<id>`): the frame shows that
   * conversation once booted when it is the visitor's own, and stays where it is otherwise.
   */
  | { tag: typeof TAG; type: "conversation"; id: string }
  /** The visitor opened the launcher's preview of a message (the messenger shows it) or closed it (hidden). */
  | { tag: typeof TAG; type: "message"; send: number; action: "open" | "dismiss" };

export type FromFrame =
  | { tag: typeof TAG; type: "ready" }
  /** Escape or the close button inside the frame. */
  | { tag: typeof TAG; type: "close" }
  | { tag: typeof TAG; type: "unread"; count: number }
  /** The app's launcher settings, once the frame knows them. */
  | { tag: typeof TAG; type: "appearance"; accent?: string; position?: "left" | "right" }
  /** An event for the site's addCallback(name, fn) listeners. */
  | { tag: typeof TAG; type: "event"; name: string; data?: unknown }
  /** What the launcher previews while the messenger is closed; null: nothing. */
  | { tag: typeof TAG; type: "preview"; preview: Preview | null };

export function isMessage<T extends { tag: typeof TAG }>(data: unknown): data is T {
  // A primitive has no own `tag`: reading one gives undefined, as for null.
  return (data as { tag?: unknown } | null | undefined)?.tag === TAG;
}
