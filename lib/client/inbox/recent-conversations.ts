import type { QueryClient } from "@tanstack/react-query";
import type { Conversation } from "./types";

/**
 * How long a conversation's state from the socket is kept, to be put back over a list answer that was asked
 * before it came (lib/client/inbox/realtime.ts reconcileFetchedLists). Longer than any list request takes.
 */
export const RECENT_MS = 120_000;

interface Recent {
  conv: Conversation;
  /** The event-log ID of the message, when it has one. */
  event: bigint | undefined;
  /** Date.now() when it came. */
  at: number;
}

/** Per query client (a test's or the page's), per app: the latest state of each conversation, oldest first. */
const stores = new WeakMap<QueryClient, Map<string, Map<string, Recent>>>();

function storeOf(qc: QueryClient, appId: string): Map<string, Recent> {
  let apps = stores.get(qc);
  if (!apps) stores.set(qc, (apps = new Map<string, Map<string, Recent>>()));
  let store = apps.get(appId);
  if (!store) apps.set(appId, (store = new Map<string, Recent>()));
  return store;
}

function eventId(id: unknown): bigint | undefined {
  if (typeof id === "number" && Number.isSafeInteger(id) && id >= 0) return BigInt(id);
  if (typeof id === "string" && /^\d{1,19}$/.test(id)) return BigInt(id);
  return undefined;
}

/**
 * Notes a conversation's state as a socket message brings it. False when a later message of the same
 * conversation came before (a replay repeats older messages): applying this one would put an older state back.
 */
export function noteConversation(
  qc: QueryClient,
  appId: string,
  conv: Conversation,
  messageId: unknown,
  now = Date.now(),
): boolean {
  const store = storeOf(qc, appId);
  const key = String(conv.id);
  const event = eventId(messageId);
  const old = store.get(key);
  if (old?.event !== undefined && event !== undefined && event < old.event) return false;
  // Deleted first so that the map's order stays the order they came in.
  store.delete(key);
  store.set(key, { conv, event, at: now });
  for (const [id, r] of store) {
    if (now - r.at <= RECENT_MS) break;
    store.delete(id);
  }
  return true;
}

/** The latest state of each conversation the socket told of in the last RECENT_MS, in the order they came. */
export function recentConversations(qc: QueryClient, appId: string, now = Date.now()): Conversation[] {
  const out: Conversation[] = [];
  for (const r of storeOf(qc, appId).values()) if (now - r.at <= RECENT_MS) out.push(r.conv);
  return out;
}
