import type { InfiniteData } from "@tanstack/react-query";
import { compareConversations, matchesList, type ListParams } from "./filters";
import type { Conversation, Page } from "./types";

export type ConversationPages = InfiniteData<Page<Conversation>, unknown>;

const same = (a: { id: unknown }, id: string) => String(a.id) === id;

export function findConversation(data: ConversationPages | undefined, id: string): Conversation | undefined {
  for (const page of data?.pages ?? []) {
    const hit = page.items.find((c) => same(c, id));
    if (hit) return hit;
  }
  return undefined;
}

export function removeConversation(data: ConversationPages, id: string): ConversationPages {
  if (!findConversation(data, id)) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.filter((c) => !same(c, id)) })) };
}

/**
 * Whether a conversation sorts at or before a page's next position (`[last_update, id]` of its last row as read):
 * the next page starts after it, so a conversation there belongs to the loaded pages.
 */
function notPast(conv: Conversation, next: (number | string)[]): boolean {
  const [at, id] = next;
  if (typeof at !== "number" || id === undefined || !/^\d{1,19}$/.test(String(id))) return false;
  return compareConversations(conv, { ...conv, last_update: at, id }) <= 0;
}

/**
 * Puts a conversation where the list's order says. When it sorts after everything loaded and past the position the
 * next page starts from, it is left out: that page will bring it. Returns the same object when nothing changed.
 */
export function upsertConversation(data: ConversationPages, conv: Conversation): ConversationPages {
  const id = String(conv.id);
  const without = removeConversation(data, id);
  const pages = without.pages.map((p) => ({ ...p, items: [...p.items] }));
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i]!;
    const at = page.items.findIndex((c) => compareConversations(conv, c) < 0);
    if (at >= 0) {
      page.items.splice(at, 0, conv);
      return { ...data, pages };
    }
    // The loaded pages' last row itself, say, updated in place: the next page would not bring it back.
    if (i === pages.length - 1 && (page.next === null || notPast(conv, page.next))) {
      page.items.push(conv);
      return { ...data, pages };
    }
  }
  return pages.length === 0 ? data : { ...without, pages };
}

/** Applies `fn` to every conversation (a user's presence, say); keeps the object when nothing changed. */
export function mapConversations(
  data: ConversationPages,
  fn: (c: Conversation) => Conversation,
): ConversationPages {
  let changed = false;
  const pages = data.pages.map((p) => {
    const items = p.items.map((c) => {
      const next = fn(c);
      if (next !== c) changed = true;
      return next;
    });
    return { ...p, items };
  });
  return changed ? { ...data, pages } : data;
}

/** Every loaded conversation once, in order (a conversation updated between two page loads is in both). */
export function flattenConversations(data: ConversationPages | undefined): Conversation[] {
  const seen = new Set<string>();
  const out: Conversation[] = [];
  for (const page of data?.pages ?? []) {
    for (const c of page.items) {
      const id = String(c.id);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(c);
    }
  }
  return out;
}

/** An operator-started conversation stays out of the Inbox until the visitor writes. */
export function inInbox(c: Conversation & { message?: { type?: string } | null }): boolean {
  if (typeof c.message !== "object" || c.message?.type !== "manual") return true;
  return [c.reply_last, c.important_part_last, c.part_last].some((p) => p?.direction === "u2a");
}

export interface PatchEnv {
  /** Unix seconds (whether a snooze is over). */
  now: number;
  /** The channel of a conversation seen before (socket payloads leave it out). */
  channelOf: (id: string) => string | undefined;
  /** Whether another list shows it: one seen before may join this list even if it is not yet in the Inbox. */
  seen: (id: string) => boolean;
}

/**
 * One conversation's new state applied to one list: put in its place while it matches the list's filter, taken out
 * once it does not. A state older than the row shown changes nothing. `undefined`: the list cannot tell (filtered
 * by channel, and a conversation never seen whose message leaves its channel out).
 */
export function patchList(
  data: ConversationPages,
  params: ListParams,
  conv: Conversation,
  env: PatchEnv,
): ConversationPages | undefined {
  const id = String(conv.id);
  const current = findConversation(data, id);
  if (current && Number(current.last_update) > Number(conv.last_update)) return data;
  const merged: Conversation =
    current?.channel !== undefined && conv.channel === undefined
      ? { ...conv, channel: current.channel }
      : conv;
  const match = matchesList(merged, params, env.now, env.channelOf);
  if (match === undefined) return current ? upsertConversation(data, merged) : undefined;
  if (match) return current || env.seen(id) || inInbox(conv) ? upsertConversation(data, merged) : data;
  return current ? removeConversation(data, id) : data;
}

/**
 * A list as an answer brought it, with the socket's latest states put back over it (each the latest known of its
 * conversation, oldest first): the answer, or pages of it, may have been read before some of them.
 */
export function reconcileList(
  data: ConversationPages,
  params: ListParams,
  recent: readonly Conversation[],
  env: PatchEnv,
): ConversationPages {
  let out = data;
  for (const conv of recent) out = patchList(out, params, conv, env) ?? out;
  return out;
}
