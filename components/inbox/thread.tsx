"use client";

import { Fragment, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { Spinner } from "@/components/ui/spinner";
import { clickedButtons, threadParts } from "@/lib/client/inbox/thread-cache";
import type { useConversationParts } from "@/lib/client/inbox/use-conversation-parts";
import { useConversationEmails } from "@/lib/client/use-conversation-emails";
import { useConversationRating } from "@/lib/client/use-conversation-rating";
import { RatingLine } from "@/components/csat/rating-line";
import { ConversationEmails } from "./conversation-emails";
import { PartView } from "./part-view";

interface ThreadProps {
  appId: string;
  conversationId: string;
  query: ReturnType<typeof useConversationParts>;
  meId: string;
  typing: boolean;
  visitor: string;
  onRetry: (randomId: number) => void;
  onDiscard: (randomId: number) => void;
}

/**
 * The conversation's parts, oldest at the top, and under them the emails its visitor was sent; scrolling up loads
 * older parts, new ones keep it at the bottom.
 */
export function Thread({
  appId,
  conversationId,
  query,
  meId,
  typing,
  visitor,
  onRetry,
  onDiscard,
}: ThreadProps) {
  const parts = useMemo(() => threadParts(query.data), [query.data]);
  const emails = useConversationEmails(appId, conversationId);
  const clicked = useMemo(() => clickedButtons(parts), [parts]);
  const rating = useConversationRating(conversationId).data;
  // The rating's line goes after the last part before it (asked at a close, rated later).
  const ratedAt = rating ? (rating.rated ?? rating.requested) : null;
  const ratingAfter = ratedAt === null ? -2 : parts.findLastIndex((p) => p.created <= ratedAt);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const olderFrom = useRef<number | null>(null);
  const lastId = parts.length ? String(parts[parts.length - 1]!.id) : "";

  // The email lines sit under the newest part: when they come or change, that part stays in view too.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (olderFrom.current !== null) {
      // Older parts went in above: keep what the operator was reading where it was.
      el.scrollTop += el.scrollHeight - olderFrom.current;
      olderFrom.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [parts.length, lastId, typing, emails.data]);

  const loadOlder = () => {
    const el = scroller.current;
    if (!el || !query.hasNextPage || query.isFetchingNextPage) return;
    olderFrom.current = el.scrollHeight;
    void query.fetchNextPage();
  };

  useEffect(() => {
    // A short thread cannot be scrolled: fetch older pages until it can (or there are none).
    const el = scroller.current;
    if (el && query.hasNextPage && !query.isFetchingNextPage && el.scrollHeight <= el.clientHeight)
      loadOlder();
  });

  return (
    <div
      ref={scroller}
      className="min-h-0 flex-1 overflow-y-auto px-4 py-3"
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        if (el.scrollTop < 80) loadOlder();
      }}
      data-testid="thread"
    >
      {query.isFetchingNextPage && (
        <p className="py-2 text-center text-xs text-slate-500" aria-live="polite">
          Loading older messages…
        </p>
      )}
      {query.isPending ? (
        <div className="flex h-full items-center justify-center">
          <Spinner className="size-5 text-slate-400" label="Loading messages" />
        </div>
      ) : query.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Can’t load messages: {query.error.message}
        </p>
      ) : (
        <ol aria-label="Messages" aria-live="polite" aria-relevant="additions">
          {rating && ratingAfter === -1 && <RatingLine rating={rating} />}
          {parts.map((p, i) => (
            <Fragment key={String(p.id)}>
              <PartView
                part={p}
                meId={meId}
                clicked={clicked.get(String(p.id))}
                onRetry={onRetry}
                onDiscard={onDiscard}
              />
              {rating && i === ratingAfter && <RatingLine rating={rating} />}
            </Fragment>
          ))}
        </ol>
      )}
      {!query.isPending && <ConversationEmails key={conversationId} query={emails} />}
      <p className="h-5 text-xs text-slate-500 italic" aria-live="polite" data-testid="typing-indicator">
        {typing ? `${visitor} is typing…` : ""}
      </p>
    </div>
  );
}
