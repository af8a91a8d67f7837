import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { appChannel, type SocketPayload } from "@/lib/contract/socket";
import { queryKeys } from "../query-keys";
import type { ListParams } from "./filters";
import {
  findConversation,
  mapConversations,
  patchList,
  reconcileList,
  type ConversationPages,
  type PatchEnv,
} from "./list-cache";
import { noteConversation, recentConversations } from "./recent-conversations";
import { addPart, type PartPages } from "./thread-cache";
import type { Id, Presence } from "../leads-types";
import type { Conversation, Part } from "./types";
import { emitVisitorMessage } from "./visitor-messages";

/**
 * The Inbox's socket handlers (called by ../realtime-dispatch.ts): each patches the React Query cache in place.
 * Nothing is refetched per message, except the counters, at most once per COUNTS_DELAY_MS.
 */

const COUNTS_DELAY_MS = 400;
const timers = new Map<string, ReturnType<typeof setTimeout>>();

/** Runs `fn` once, `ms` after the first of a burst of calls with the same key. */
function coalesce(key: string, ms: number, fn: () => void): void {
  if (timers.has(key)) return;
  timers.set(
    key,
    setTimeout(() => {
      timers.delete(key);
      fn();
    }, ms),
  );
}

export interface TypingState {
  /** Date.now() of the last typing event. */
  at: number;
  body: string;
}

function listQueries(qc: QueryClient, appId: string): [QueryKey, ConversationPages | undefined][] {
  return qc.getQueriesData<ConversationPages>({ queryKey: queryKeys.inbox.lists(appId) });
}

/**
 * The channel of a conversation seen before. Socket payloads leave the channel out, and lists filtered by a
 * channel load it (include_channel), so a conversation found in one knows it.
 */
function knownChannel(qc: QueryClient, appId: string, id: string): string | undefined {
  const detail = qc.getQueryData<Conversation>(queryKeys.inbox.conversation(id));
  if (detail?.channel !== undefined) return String(detail.channel?.id ?? 0);
  for (const [, data] of listQueries(qc, appId)) {
    const c = findConversation(data, id);
    if (c?.channel !== undefined) return String(c.channel?.id ?? 0);
  }
  return undefined;
}

function patchEnv(
  qc: QueryClient,
  appId: string,
  lists: [QueryKey, ConversationPages | undefined][],
): PatchEnv {
  return {
    now: Date.now() / 1000,
    channelOf: (cid) => knownChannel(qc, appId, cid),
    seen: (cid) => lists.some(([, data]) => !!findConversation(data, cid)),
  };
}

/**
 * `messageId` is the socket message's event-log ID: a message older than one already applied for the same
 * conversation (a replay) is skipped, so it cannot bring back a row a later message took out.
 */
export function applyConversation(
  qc: QueryClient,
  appId: string,
  conv: Conversation,
  messageId?: unknown,
): void {
  if (!noteConversation(qc, appId, conv, messageId)) return;
  const id = String(conv.id);
  const lists = listQueries(qc, appId);
  // A message the cache is already past (a subscription resumes a little before the page's first reads): writing
  // it would put an older state back.
  const shown = [
    qc.getQueryData<Conversation>(queryKeys.inbox.conversation(id)),
    ...lists.map(([, data]) => findConversation(data, id)),
  ];
  if (shown.some((c) => c !== undefined && Number(c.last_update) > Number(conv.last_update))) return;
  const env = patchEnv(qc, appId, lists);
  for (const [key, data] of lists) {
    // A list still loading gets this state from the store once its answer comes (reconcileFetchedLists).
    if (!data) continue;
    const next = patchList(data, key[3] as ListParams, conv, env);
    // A channel-filtered list and a conversation never seen: ask that list again, once for a burst.
    if (next === undefined)
      coalesce(JSON.stringify(key), COUNTS_DELAY_MS, () => void qc.invalidateQueries({ queryKey: key }));
    else if (next !== data) qc.setQueryData<ConversationPages>(key, next);
  }
  qc.setQueryData<Conversation>(queryKeys.inbox.conversation(id), (old) =>
    old ? { ...conv, channel: conv.channel ?? old.channel } : old,
  );
  coalesce(
    `counts:${appId}`,
    COUNTS_DELAY_MS,
    () => void qc.invalidateQueries({ queryKey: queryKeys.inbox.counts(appId) }),
  );
}

const isListOf = (key: QueryKey, appId: string) =>
  queryKeys.inbox.lists(appId).every((part, i) => key[i] === part) && key.length === 4;

/**
 * Every list answer, brought up to the socket's latest states. An answer replaces the whole cached list, and what
 * it holds may be older than messages already applied: fetchNextPage keeps the pages as they were when it started
 * (patches made meanwhile are lost), a refetch reads its pages one after another, and a page can be read before a
 * message about a row it brings. Messages that came while it was in flight are in the store; applying the latest
 * state of each again is harmless to rows that already reflect it. Returns the unsubscribe.
 */
export function reconcileFetchedLists(qc: QueryClient, appId: string): () => void {
  return qc.getQueryCache().subscribe((e) => {
    if (e.type !== "updated" || e.action.type !== "success" || e.action.manual) return;
    const key = e.query.queryKey as QueryKey;
    const data = e.query.state.data as ConversationPages | undefined;
    if (!data || !isListOf(key, appId)) return;
    const recent = recentConversations(qc, appId);
    if (recent.length === 0) return;
    const next = reconcileList(
      data,
      key[3] as ListParams,
      recent,
      patchEnv(qc, appId, listQueries(qc, appId)),
    );
    if (next !== data) qc.setQueryData<ConversationPages>(key, next);
  });
}

/**
 * A message that lands while the query's first load is in flight may be missing from what that load returns: ask
 * again (once for a burst), rather than drop it.
 */
function refetchIfLoading(qc: QueryClient, key: QueryKey): void {
  if (qc.getQueryState(key)?.fetchStatus !== "fetching") return;
  coalesce(JSON.stringify(key), 50, () => void qc.invalidateQueries({ queryKey: key, exact: true }));
}

export function applyPart(qc: QueryClient, part: Part): void {
  const convId = String(part.conversation);
  const key = queryKeys.inbox.parts(convId);
  if (qc.getQueryData(key)) qc.setQueryData<PartPages>(key, (old) => (old ? addPart(old, part) : old));
  else refetchIfLoading(qc, key);
  if (part.type === "reply_user") {
    // The visitor sent what they were typing.
    qc.setQueryData(queryKeys.inbox.typing(convId), null);
    emitVisitorMessage(part);
  }
}

/**
 * `user_presence_changed`: the visitor's dot in the Inbox's lists. The sidebar reads the user cache the Leads card
 * shares, which ../leads-realtime.ts patches; ../realtime-dispatch.ts runs both.
 */
export function onInboxUserPresence(
  qc: QueryClient,
  appId: string,
  user: { id: Id; presence: Presence },
): void {
  const userId = String(user.id);
  for (const [key, data] of listQueries(qc, appId)) {
    if (!data) continue;
    const next = mapConversations(data, (c) =>
      c.user && String(c.user.id) === userId && c.user.presence !== user.presence
        ? { ...c, user: { ...c.user, presence: user.presence } }
        : c,
    );
    if (next !== data) qc.setQueryData(key, next);
  }
}

/** `conversation_typing`: the visitor's words as they type them, shown for a while (use-visitor-typing.ts). */
export function onConversationTyping(qc: QueryClient, t: SocketPayload<"conversation_typing">): void {
  // Visitors are named by their ID; operators by an object (their typing is not shown).
  if (typeof t.from === "object" && t.from !== null) return;
  const key = queryKeys.inbox.typing(String(t.conversation));
  // An empty body: the visitor emptied their composer (the messenger's stop), so the indicator goes at once.
  if (!t.body) return void qc.setQueryData(key, null);
  qc.setQueryData<TypingState>(key, { at: Date.now(), body: t.body });
}

/** The app's channels the Inbox listens to. */
export const inboxChannels = (appId: string): string[] =>
  (
    [
      "conversation",
      "conversation_started_user",
      "conversation_reply",
      "conversation_typing",
      "conversation_bulk",
      "user_presence_changed",
      "user_props_changed",
      "conversation_rating",
    ] as const
  ).map((kind) => appChannel(kind, appId));
