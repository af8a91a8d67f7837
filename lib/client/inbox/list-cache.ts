import type { InfiniteData } from "@tanstack/react-query";
import { compareConversations } from "./filters";
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
 * Puts a conversation where the list's order says. When it sorts after everything loaded and more pages remain,
 * it is left out: the next page will bring it. Returns the same object when nothing changed.
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
    if (page.next === null && i === pages.length - 1) {
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
