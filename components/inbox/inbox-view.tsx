"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { EmptyState } from "@/components/panel/page-header";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import {
  inboxSearch,
  listParams,
  parseInboxUrl,
  type InboxFilter,
  type InboxUrlState,
} from "@/lib/client/inbox/filters";
import { flattenConversations } from "@/lib/client/inbox/list-cache";
import { newRandomId } from "@/lib/client/inbox/thread-cache";
import type { Actor } from "@/lib/client/inbox/types";
import { useConversation } from "@/lib/client/inbox/use-conversation";
import { useConversationAction, type ConversationAction } from "@/lib/client/inbox/use-conversation-action";
import { useConversationCounts } from "@/lib/client/inbox/use-conversation-counts";
import { useConversationParts } from "@/lib/client/inbox/use-conversation-parts";
import { useInboxConversations } from "@/lib/client/inbox/use-inbox-conversations";
import { useInboxNotifications } from "@/lib/client/inbox/use-inbox-notifications";
import { useInboxShortcuts } from "@/lib/client/inbox/use-inbox-shortcuts";
import { useInboxSubscription } from "@/lib/client/inbox/use-inbox-subscription";
import { useMarkRead } from "@/lib/client/inbox/use-mark-read";
import { useSendReply, type SendReplyInput } from "@/lib/client/inbox/use-send-reply";
import { useSendTyping } from "@/lib/client/inbox/use-send-typing";
import { useVisitorTyping } from "@/lib/client/inbox/use-visitor-typing";
import { useChannels } from "@/lib/client/use-channels";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { useMe } from "@/lib/client/use-me";
import { useAdmins } from "@/lib/client/use-admins";
import { useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/lib/client/query-keys";
import { removePending, type PartPages } from "@/lib/client/inbox/thread-cache";
import { Composer, type ComposerDraft, type ComposerMode } from "./composer";
import { ConversationHeader } from "./conversation-header";
import { ConversationList } from "./conversation-list";
import { knownVisitorName, visitorName } from "./format";
import { ShortcutsOverlay } from "./shortcuts-overlay";
import { Thread } from "./thread";
import { VisitorDrawer } from "./visitor-drawer";
import { VisitorSidebar } from "./visitor-sidebar";
import { useInboxBulk } from "./use-inbox-bulk";
import type { VirtualListHandle } from "./virtual-list";

/** The operators' Inbox: the list, the open conversation and its visitor; the URL holds filters and selection. */
export function InboxView() {
  const { app } = useCurrentApp();
  const me = useMe().data;
  if (!app || !me) {
    return <EmptyState title="No app yet">Ask an owner to add you to an app.</EmptyState>;
  }
  const actor: Actor = { id: me.admin.id, name: me.admin.name, avatar: me.admin.avatar, type: "admin" };
  return <Inbox key={String(app.id)} appId={String(app.id)} me={actor} />;
}

function Inbox({ appId, me }: { appId: string; me: Actor }) {
  const meId = String(me.id);
  const search = useSearchParams();
  const state = useMemo(() => parseInboxUrl(search), [search]);
  const setUrl = useCallback((next: InboxUrlState, push = false) => {
    const url = `/inbox${inboxSearch(next)}`;
    if (push) window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
  }, []);
  const onFilter = (patch: Partial<InboxFilter>) => setUrl({ ...state, ...patch });
  const select = useCallback(
    (id: string | null) => setUrl({ ...state, selected: id }, true),
    [setUrl, state],
  );

  useInboxSubscription(appId);
  const params = useMemo(() => listParams(state, meId), [state, meId]);
  const list = useInboxConversations(appId, params);
  const items = useMemo(() => flattenConversations(list.data), [list.data]);
  const counts = useConversationCounts(appId);
  const admins = useAdmins(appId);
  const channels = useChannels(appId);
  const bulk = useInboxBulk({
    appId,
    meId,
    params,
    items,
    more: list.hasNextPage,
    admins: admins.data ?? [],
  });

  const selected = state.selected;
  const conversation = useConversation(appId, selected);
  const conv = conversation.data;
  const parts = useConversationParts(selected);
  const typing = useVisitorTyping(selected);
  const sendTyping = useSendTyping(selected);
  const queryClient = useQueryClient();
  const sendReply = useSendReply(me);
  const sent = useRef(new Map<number, SendReplyInput>());
  // Unsent drafts per conversation, for this page's life: a mutable map that lives as long as the Inbox.
  const [drafts] = useState(() => new Map<string, ComposerDraft>());
  const saveDraft = useCallback(
    (draft: ComposerDraft | null) => {
      if (!selected) return;
      if (draft) drafts.set(selected, draft);
      else drafts.delete(selected);
    },
    [drafts, selected],
  );
  const action = useConversationAction(appId);
  const markRead = useMarkRead(appId);

  const [mode, setMode] = useState<ComposerMode>("reply_admin");
  const [help, setHelp] = useState(false);
  const [details, setDetails] = useState(false);
  const closeDetails = useCallback(() => setDetails(false), []);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const listRef = useRef<VirtualListHandle>(null);

  const describe = useCallback(
    (id: string) => {
      const c = items.find((x) => String(x.id) === id);
      return c ? `New message from ${visitorName(c.user, c.id)}` : "New message";
    },
    [items],
  );
  const alerts = useInboxNotifications(describe);

  const readKey = useRef("");
  useEffect(() => {
    if (!conv || conv.unread_parts_count === 0 || document.visibilityState !== "visible") return;
    const key = `${conv.id}:${conv.last_update}`;
    if (readKey.current === key) return;
    readKey.current = key;
    markRead.mutate(conv);
  }, [conv, markRead]);

  const send = (input: SendReplyInput) => {
    sent.current.set(input.randomId, input);
    // mutateAsync: a per-call onSuccess would only run for the latest of several sends in flight.
    sendReply.mutateAsync(input).then(
      () => sent.current.delete(input.randomId),
      () => undefined, // shown on the part, with Retry
    );
  };
  const retry = (randomId: number) => {
    const input = sent.current.get(randomId);
    if (input) send(input);
  };
  const discard = (randomId: number) => {
    const conversationId = sent.current.get(randomId)?.conversationId ?? selected;
    sent.current.delete(randomId);
    if (!conversationId) return;
    queryClient.setQueryData<PartPages>(queryKeys.inbox.parts(conversationId), (old) =>
      old ? removePending(old, randomId) : old,
    );
  };
  const act = (a: ConversationAction) => {
    if (conv) action.mutate({ conversation: conv, action: a });
  };
  const actionError =
    action.isError && conv && String(action.variables.conversation.id) === String(conv.id)
      ? `Could not update the conversation: ${action.error.message}`
      : null;

  const move = (delta: number) => {
    if (!items.length) return;
    const at = items.findIndex((c) => String(c.id) === selected);
    const next = Math.min(items.length - 1, Math.max(0, at < 0 ? 0 : at + delta));
    listRef.current?.scrollToIndex(next);
    select(String(items[next]!.id));
  };
  const focusComposer = (m: ComposerMode) => {
    setMode(m);
    requestAnimationFrame(() => textarea.current?.focus());
  };

  useInboxShortcuts(
    {
      next: () => move(1),
      previous: () => move(-1),
      reply: () => conv && focusComposer("reply_admin"),
      note: () => conv && focusComposer("note"),
      close: () => conv && !conv.closed && act({ kind: "close" }),
      assignToMe: () =>
        conv && String(conv.assignee?.id ?? "") !== meId && act({ kind: "assign", admin: me }),
      help: () => setHelp(true),
    },
    help || details,
  );

  const alertButton = (
    <Button
      size="sm"
      variant="ghost"
      aria-pressed={alerts.enabled}
      onClick={() => void (alerts.enabled ? alerts.disable() : alerts.enable())}
      title="Desktop notification and sound for new visitor messages"
    >
      {alerts.enabled ? "Alerts on" : "Enable alerts"}
    </Button>
  );
  const helpButton = (
    <Button size="sm" variant="ghost" aria-label="Keyboard shortcuts" onClick={() => setHelp(true)}>
      ?
    </Button>
  );

  return (
    <div className="flex h-[calc(100dvh-7rem)] min-h-[28rem] md:h-dvh">
      <ConversationList
        className={cn(
          "w-full border-slate-200 md:w-80 md:shrink-0 md:border-r",
          selected && "hidden md:flex",
        )}
        filter={state}
        onFilter={onFilter}
        counts={counts.data}
        admins={admins.data ?? []}
        channels={channels.data ?? []}
        meId={meId}
        query={list}
        selected={selected}
        onSelect={select}
        listRef={listRef}
        bulk={bulk}
        actions={
          <>
            {alertButton}
            {helpButton}
          </>
        }
      />
      <section
        aria-label="Conversation"
        className={cn("min-w-0 flex-1 flex-col bg-slate-50", selected ? "flex" : "hidden md:flex")}
      >
        {!selected ? (
          <EmptyState title="No conversation selected">
            Pick one from the list, or press <kbd>j</kbd> to open the first. Press <kbd>?</kbd> for shortcuts.
          </EmptyState>
        ) : !conv ? (
          <p className="p-6 text-sm text-slate-600" role={conversation.isError ? "alert" : undefined}>
            {conversation.isError
              ? `Can’t open this conversation: ${conversation.error.message}`
              : "Loading…"}
          </p>
        ) : (
          <>
            <ConversationHeader
              conversation={conv}
              admins={admins.data ?? []}
              me={me}
              onAction={act}
              error={actionError}
              onBack={() => select(null)}
              onDetails={() => setDetails(true)}
            />
            <Thread
              appId={appId}
              conversationId={String(conv.id)}
              query={parts}
              meId={meId}
              typing={typing}
              visitor={visitorName(conv.user, conv.id)}
              onRetry={retry}
              onDiscard={discard}
            />
            <Composer
              key={selected}
              appId={appId}
              placeholders={{ visitor_name: knownVisitorName(conv.user), operator_name: me.name }}
              mode={mode}
              onMode={setMode}
              onSend={(s) => send({ ...s, conversationId: String(conv.id), randomId: newRandomId() })}
              draft={drafts.get(String(conv.id))}
              onDraft={saveDraft}
              onTyping={sendTyping}
              textareaRef={textarea}
            />
          </>
        )}
      </section>
      {conv?.user && (
        <VisitorDrawer open={details} onClose={closeDetails}>
          <VisitorSidebar
            user={conv.user}
            conversationId={String(conv.id)}
            onOpen={(id) => {
              setDetails(false);
              select(id);
            }}
            className="h-full"
          />
        </VisitorDrawer>
      )}
      {help && <ShortcutsOverlay onClose={() => setHelp(false)} />}
    </div>
  );
}
