"use client";

import { useState, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Time } from "@/components/ui/time";
import { UserText } from "@/components/ui/user-text";
import type { EmailDelivery, EmailKind } from "@/lib/client/settings-types";
import type { useConversationEmails } from "@/lib/client/use-conversation-emails";

/** An envelope, beside the words that say "email" (it is never the only cue). */
export function MailIcon({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={cn("inline-block size-3.5 shrink-0", className)}
    >
      <rect x="2.5" y="4.5" width="15" height="11" rx="1.5" />
      <path d="m3 5.5 7 5.5 7-5.5" />
    </svg>
  );
}

/** The visitor's emails: the rest of a conversation's (operators' notices) are not part of the thread. */
const TO_VISITOR: Partial<Record<EmailKind, string>> = {
  continuity: "Emailed to",
  transcript: "Transcript emailed to",
};
/** The newest few are shown; the earlier ones on request. */
const SHOWN = 3;

function outcome(e: EmailDelivery): ReactNode {
  const why = e.last_error ?? "no reason given";
  switch (e.state) {
    case "queued":
      return "sending…";
    case "sent":
      return (
        <>
          sent <Time seconds={e.sent_at ?? e.created} short />
        </>
      );
    case "deferred":
      return (
        <>
          deferred, next try <Time seconds={e.next_attempt} short fallback="soon" />
        </>
      );
    case "bounced":
      return <span className="text-red-700">bounced: {why}</span>;
    case "failed":
      return <span className="text-red-700">failed: {why}</span>;
    case "not_sent":
      return `not sent: ${why}`;
  }
}

/**
 * One compact line per email the visitor was sent from this conversation (operators' unread replies, the
 * transcript), oldest first under the thread: to whom, and whether it left.
 */
export function ConversationEmails({ query }: { query: ReturnType<typeof useConversationEmails> }) {
  const [all, setAll] = useState(false);
  if (query.isError && !query.data) {
    return <ErrorAlert className="mt-2" error={query.error} title="Can’t load this conversation’s emails" />;
  }
  const emails = (query.data ?? []).filter((e) => TO_VISITOR[e.kind]).reverse();
  if (!emails.length) return null;
  const earlier = all ? 0 : Math.max(0, emails.length - SHOWN);
  return (
    <section
      aria-label="Emails to the visitor"
      className="mt-2 border-t border-slate-200 pt-1.5 text-xs text-slate-500"
      data-testid="conversation-emails"
    >
      {earlier > 0 && (
        <button
          type="button"
          onClick={() => setAll(true)}
          className="mb-0.5 rounded text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          Show {earlier} earlier {earlier === 1 ? "email" : "emails"}
        </button>
      )}
      <ul className="space-y-0.5">
        {emails.slice(earlier).map((e) => (
          <li
            key={String(e.id)}
            className="flex items-baseline gap-1.5"
            data-testid="conversation-email"
            data-state={e.state}
          >
            <MailIcon className="self-center" />
            <span className="min-w-0">
              {TO_VISITOR[e.kind]} <UserText>{e.to}</UserText> · {outcome(e)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
