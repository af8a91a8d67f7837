import type { Conversation } from "./types";
import { RATING_FILTERS, type RatingFilter } from "@/lib/conversations/schemas";

/** The Inbox's list state, as the URL holds it (`?tab=&assignee=&channel=&tag=&c=`). */
export type InboxTab = "open" | "delayed" | "closed";
export const INBOX_TABS: readonly InboxTab[] = ["open", "delayed", "closed"];

export interface InboxFilter {
  tab: InboxTab;
  /** "mine", "unassigned", "all" or an operator's ID. */
  assignee: string;
  /** A channel's ID, "0" for conversations without one, null for every channel. */
  channel: string | null;
  tag: string | null;
  /** The visitors' rating (lib/csat): rated, unrated, good, bad or a score; null for any. */
  rating?: RatingFilter | null;
}

export interface InboxUrlState extends InboxFilter {
  /** The selected conversation. */
  selected: string | null;
}

export const DEFAULT_FILTER: InboxFilter = { tab: "open", assignee: "all", channel: null, tag: null };

const ID = /^\d{1,19}$/;

export function parseInboxUrl(params: { get(name: string): string | null }): InboxUrlState {
  const tab = params.get("tab");
  const assignee = params.get("assignee");
  const channel = params.get("channel");
  const tag = params.get("tag")?.trim();
  const selected = params.get("c");
  const rating = params.get("rating");
  return {
    tab: INBOX_TABS.includes(tab as InboxTab) ? (tab as InboxTab) : DEFAULT_FILTER.tab,
    assignee:
      assignee && (["mine", "unassigned", "all"].includes(assignee) || ID.test(assignee))
        ? assignee
        : DEFAULT_FILTER.assignee,
    channel: channel && ID.test(channel) ? channel : null,
    tag: tag ? tag.slice(0, 255) : null,
    // Only when given: a URL without it reads as before the filter existed.
    ...((RATING_FILTERS as readonly string[]).includes(rating ?? "")
      ? { rating: rating as RatingFilter }
      : {}),
    selected: selected && ID.test(selected) ? selected : null,
  };
}

/** The query string of a state; defaults are left out so URLs stay short. */
export function inboxSearch(state: InboxUrlState): string {
  const q = new URLSearchParams();
  if (state.tab !== DEFAULT_FILTER.tab) q.set("tab", state.tab);
  if (state.assignee !== DEFAULT_FILTER.assignee) q.set("assignee", state.assignee);
  if (state.channel !== null) q.set("channel", state.channel);
  if (state.tag !== null) q.set("tag", state.tag);
  if (state.rating) q.set("rating", state.rating);
  if (state.selected !== null) q.set("c", state.selected);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/**
 * The list endpoint's filter parameters for a filter, with "mine" resolved to the operator. They are also the list
 * query's key, so socket handlers can tell from a cached list which conversations belong in it.
 */
export interface ListParams {
  closed: boolean;
  delayed?: boolean;
  assigned?: string;
  channel?: string;
  tags?: string[];
  rating?: RatingFilter;
}

export function listParams(f: InboxFilter, meId: string): ListParams {
  const out: ListParams =
    f.tab === "closed" ? { closed: true } : { closed: false, delayed: f.tab === "delayed" };
  if (f.assignee === "mine") out.assigned = meId;
  else if (f.assignee === "unassigned") out.assigned = "0";
  else if (f.assignee !== "all") out.assigned = f.assignee;
  if (f.channel !== null) out.channel = f.channel;
  if (f.tag !== null) out.tags = [f.tag];
  if (f.rating) out.rating = f.rating;
  return out;
}

export function isSnoozed(c: Pick<Conversation, "closed" | "delayed_until">, nowSeconds: number): boolean {
  return !c.closed && c.delayed_until !== null && c.delayed_until > nowSeconds;
}

/**
 * Whether a conversation belongs in a list, as the server's filter would say. `channelOf` knows the channel of
 * conversations seen before (socket payloads leave the channel out); `undefined` means it cannot tell.
 */
export function matchesList(
  c: Conversation,
  p: ListParams,
  nowSeconds: number,
  channelOf: (id: string) => string | undefined,
): boolean | undefined {
  // A bot's conversation stays out of the Inbox until it hands over (spec rule 1 of the conversation list).
  if (c.assistant_type) return false;
  if (c.closed !== p.closed) return false;
  if (p.delayed !== undefined && isSnoozed(c, nowSeconds) !== p.delayed) return false;
  if (p.assigned !== undefined) {
    const assignee = c.assignee ? String(c.assignee.id) : "0";
    if (assignee !== p.assigned) return false;
  }
  if (p.tags?.some((t) => !c.tags.includes(t))) return false;
  // A conversation's rating is not on it: the list's own answer says which belong.
  if (p.rating !== undefined) return undefined;
  if (p.channel !== undefined) {
    const ch = c.channel !== undefined ? String(c.channel?.id ?? 0) : channelOf(String(c.id));
    if (ch === undefined) return undefined;
    if (ch !== p.channel) return false;
  }
  return true;
}

/** Newest `last_update` first, then highest ID: the list endpoint's order. */
export function compareConversations(a: Conversation, b: Conversation): number {
  if (a.last_update !== b.last_update) return b.last_update - a.last_update;
  const x = BigInt(a.id);
  const y = BigInt(b.id);
  return x === y ? 0 : x > y ? -1 : 1;
}
