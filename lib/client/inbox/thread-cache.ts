import type { InfiniteData } from "@tanstack/react-query";
import type { Page, Part, PendingPart, QuickReplyButton, ThreadPart } from "./types";

/** A thread's pages: the first is the newest, and each page lists its parts newest first (the API's order). */
export type PartPages = InfiniteData<Page<ThreadPart>, unknown>;

export const isPending = (p: ThreadPart): p is PendingPart => "pending" in p && p.pending === true;

const pendingId = (randomId: number) => `pending-${randomId}`;

export function pendingPart(input: {
  conversation: string;
  randomId: number;
  body: string;
  type: "reply_admin" | "note";
  from: Part["from"];
  actions?: QuickReplyButton[];
  attachmentName?: string;
}): PendingPart {
  return {
    id: pendingId(input.randomId),
    created: Math.floor(Date.now() / 1000),
    conversation: input.conversation,
    body: input.body,
    read: true,
    direction: "a2u",
    type: input.type,
    from: input.from,
    random_id: input.randomId,
    actions: input.actions?.length ? input.actions : null,
    attachments: input.attachmentName
      ? [{ type: "file", id: 0, filename: input.attachmentName, mime_type: "", size: 0, url: "", created: 0 }]
      : [],
    pending: true,
  };
}

function sortKey(p: ThreadPart): bigint {
  // Pending parts are the newest of all until the server gives them an ID.
  return isPending(p) ? 2n ** 64n : BigInt(p.id);
}

/**
 * Adds a part the server confirmed (the reply's answer or its socket echo, whichever comes first): it replaces
 * the optimistic part with the same `random_id`, or the copy already there, so a message is never shown twice.
 */
export function addPart(data: PartPages, part: Part): PartPages {
  const id = String(part.id);
  let replaced = false;
  const pages = data.pages.map((page) => {
    let hit = false;
    const items = page.items.map((p) => {
      if (replaced) return p;
      const match =
        String(p.id) === id || (isPending(p) && part.random_id !== null && p.random_id === part.random_id);
      if (!match) return p;
      replaced = hit = true;
      return part;
    });
    return hit ? { ...page, items } : page;
  });
  if (replaced) {
    // An optimistic part that was replaced may now sit before newer confirmed ones: restore the order.
    return { ...data, pages: pages.map((p) => ({ ...p, items: dedupe(sortDesc(p.items)) })) };
  }
  const [first, ...rest] = pages;
  if (!first) return data;
  return { ...data, pages: [{ ...first, items: sortDesc([part, ...first.items]) }, ...rest] };
}

function sortDesc(items: ThreadPart[]): ThreadPart[] {
  return [...items].sort((a, b) => {
    const x = sortKey(a);
    const y = sortKey(b);
    return x === y ? 0 : x > y ? -1 : 1;
  });
}

function dedupe(items: ThreadPart[]): ThreadPart[] {
  const seen = new Set<string>();
  return items.filter((p) => {
    const id = String(p.id);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export function addPending(data: PartPages, part: PendingPart): PartPages {
  const [first, ...rest] = data.pages;
  const page = first ?? { items: [], next: null };
  return { ...data, pages: [{ ...page, items: [part, ...page.items] }, ...rest] };
}

export function updatePending(
  data: PartPages,
  randomId: number,
  patch: Partial<Pick<PendingPart, "progress" | "error">>,
): PartPages {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((p) => (isPending(p) && p.random_id === randomId ? { ...p, ...patch } : p)),
    })),
  };
}

export function removePending(data: PartPages, randomId: number): PartPages {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.filter((p) => !(isPending(p) && p.random_id === randomId)),
    })),
  };
}

/** Oldest first, for display. */
export function threadParts(data: PartPages | undefined): ThreadPart[] {
  if (!data) return [];
  const out: ThreadPart[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) {
    const items = data.pages[i]!.items;
    for (let j = items.length - 1; j >= 0; j--) out.push(items[j]!);
  }
  return dedupe(out);
}

/**
 * Which quick-reply button the visitor clicked, per part holding buttons: a click is the visitor's next reply
 * whose body is a button's body (and whose meta_data is the button's).
 */
export function clickedButtons(parts: ThreadPart[]): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.actions?.length) continue;
    for (let j = i + 1; j < parts.length; j++) {
      const next = parts[j]!;
      if (next.type !== "reply_user") continue;
      const idx = p.actions.findIndex(
        (b) => b.body === next.body && sameJson(b.meta_data ?? {}, next.meta_data ?? {}),
      );
      if (idx >= 0) out.set(String(p.id), idx);
      break;
    }
  }
  return out;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A random_id for an optimistic send: a positive signed 32-bit integer (the API takes ±2³¹). */
export function newRandomId(): number {
  const buf = new Uint32Array(1);
  crypto.getRandomValues(buf);
  return (buf[0]! % 2_147_483_646) + 1;
}
