import type { Conversation, Part, Rating } from "./types";

/**
 * What the frame knows of the visitor's conversations. Parts are keyed by ID, so a part that comes twice (the
 * answer to a send and the socket's copy, a replay after reconnect, the other tab's echo) is shown once; the
 * frame's own message on its way is keyed by its random_id until the stored part replaces it.
 */
export class Store {
  conversations = new Map<number, Conversation>();
  /** Ratings asked or given, by conversation (rating.ts). */
  ratings = new Map<number, Rating>();
  private parts = new Map<number, Map<string, Part>>();
  private listeners = new Set<() => void>();

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  changed() {
    for (const fn of this.listeners) fn();
  }

  setConversations(list: Conversation[]) {
    for (const c of list) this.merge(c);
    this.changed();
  }

  /**
   * A summary older than the one held is dropped: a socket event read late by the server's log tail (or a list
   * requested before an event that came first) would otherwise put back a stale last message. Reads change a
   * summary without moving its last_update, so an equal one is taken.
   */
  private merge(c: Conversation) {
    const known = this.conversations.get(c.id);
    if (known && c.last_update < known.last_update) return;
    this.conversations.set(c.id, { ...known, ...c });
  }

  upsertConversation(c: Conversation) {
    this.merge(c);
    this.changed();
  }

  /** Newest first. */
  recent(): Conversation[] {
    return [...this.conversations.values()].sort((a, b) => b.last_update - a.last_update);
  }

  partsOf(conversation: number): Part[] {
    const all = [...(this.parts.get(conversation)?.values() ?? [])];
    // Stored parts in ID order; those on their way last.
    return all.sort((a, b) => order(a) - order(b) || a.created - b.created);
  }

  hasParts(conversation: number): boolean {
    return this.parts.has(conversation);
  }

  /**
   * Adds or replaces; true when the part was not known (a new message). It becomes its conversation's last part only
   * if it is the newest stored one: a thread's page comes newest first, and each of its older parts, new to a store
   * that already held the summary, put the visitor's first message back over the operator's reply.
   */
  addPart(p: Part, silent = false): boolean {
    let map = this.parts.get(p.conversation);
    if (!map) this.parts.set(p.conversation, (map = new Map<string, Part>()));
    if (p.random_id != null) map.delete(`r${p.random_id}`);
    const key = typeof p.id === "number" ? String(p.id) : p.id;
    const fresh = !map.has(key);
    map.set(key, { ...map.get(key), ...p });
    const c = this.conversations.get(p.conversation);
    const last = c?.last_part?.id;
    if (c && typeof p.id === "number" && fresh && (typeof last !== "number" || p.id > last)) {
      c.last_part = p;
      c.last_update = Math.max(c.last_update, p.created);
    }
    if (!silent) this.changed();
    return fresh;
  }

  setParts(conversation: number, parts: Part[]) {
    for (const p of parts) this.addPart(p, true);
    if (!this.parts.has(conversation)) this.parts.set(conversation, new Map<string, Part>());
    this.changed();
  }

  dropPart(conversation: number, key: string) {
    this.parts.get(conversation)?.delete(key);
    this.changed();
  }

  /** Operators read the visitor's messages (by "admin"), or the visitor read theirs (by "user"). */
  markRead(conversation: number, by: "admin" | "user") {
    for (const p of this.parts.get(conversation)?.values() ?? [])
      if ((p.type === "reply_user") === (by === "admin")) p.read = true;
    const c = this.conversations.get(conversation);
    if (c && by === "user") c.unread = 0;
    this.changed();
  }

  /** A given rating is never replaced by the ask that preceded it (a replayed event). */
  setRating(r: Rating) {
    if (r.rating === null && this.ratings.get(r.conversation)?.rating) return;
    this.ratings.set(r.conversation, r);
    this.changed();
  }

  unread(): number {
    let n = 0;
    for (const c of this.conversations.values()) n += c.unread;
    return n;
  }
}

const order = (p: Part) => (typeof p.id === "number" ? p.id : Number.MAX_SAFE_INTEGER);
