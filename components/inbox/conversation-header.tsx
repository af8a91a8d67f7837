"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { isSnoozed } from "@/lib/client/inbox/filters";
import type { Actor, Conversation } from "@/lib/client/inbox/types";
import type { AdminMember } from "@/lib/client/settings-types";
import type { ConversationAction } from "@/lib/client/inbox/use-conversation-action";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import { useAvailability } from "@/lib/client/use-availability";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { statusOf } from "@/components/panel/availability-dot";
import { formatDateTime } from "@/lib/client/format";
import { visitorName } from "./format";
import { headerControl, HeaderMore } from "./header-more";

interface HeaderProps {
  conversation: Conversation;
  admins: AdminMember[];
  me: Actor;
  onAction: (a: ConversationAction) => void;
  error: string | null;
  onBack?: () => void;
  onDetails?: () => void;
}

export function ConversationHeader({
  conversation: c,
  admins,
  me,
  onAction,
  error,
  onBack,
  onDetails,
}: HeaderProps) {
  const id = useId();
  const availability = useAvailability(String(useCurrentApp().app?.id ?? ""));
  const snoozed = isSnoozed(c, Date.now() / 1000);
  const asActor = (a: AdminMember): Actor => ({ id: a.id, name: a.name, avatar: a.avatar, type: "admin" });

  const mine = String(c.assignee?.id ?? "") === String(me.id);
  const status = c.closed ? "Closed" : snoozed ? `Snoozed until ${formatDateTime(c.delayed_until!)}` : "Open";

  // One row at 1280 px beside the list and the visitor's column: the name and the assignee keep the room, snooze
  // and tags sit behind one button. Every control keeps its place whatever the state (a disabled "Assign to me"
  // rather than none), so a double click never lands on the control that moved in under it.
  return (
    <header className="border-b border-slate-200 bg-white px-3 py-2" data-testid="conversation-header">
      {/* Wraps only on a phone, where the back and details buttons join the row. */}
      <div className="flex flex-wrap items-center gap-1.5">
        {onBack && (
          <Button size="sm" variant="ghost" onClick={onBack} className="shrink-0 md:hidden">
            ← Conversations
          </Button>
        )}
        <h2
          className="min-w-24 flex-1 leading-tight"
          data-testid="thread-title"
          title={`${cleanUserText(visitorName(c.user, c.id))} · ${status}`}
        >
          <span className="block truncate text-base font-semibold text-slate-900" data-testid="thread-name">
            <UserText>{visitorName(c.user, c.id)}</UserText>
          </span>{" "}
          <span className="block truncate text-xs font-normal text-slate-500">{status}</span>
        </h2>
        <label htmlFor={`${id}-assignee`} className="sr-only">
          Assignee
        </label>
        <select
          id={`${id}-assignee`}
          // As wide as the chosen name (up to a cap), not as the longest operator's: the room goes to the visitor's.
          className={`${headerControl} field-sizing-content max-w-40 shrink-0`}
          value={c.assignee ? String(c.assignee.id) : ""}
          onChange={(e) => {
            const a = admins.find((x) => String(x.id) === e.target.value);
            onAction({ kind: "assign", admin: a ? asActor(a) : null });
          }}
        >
          <option value="">Unassigned</option>
          {admins.map((a) => (
            <option key={String(a.id)} value={String(a.id)}>
              {cleanUserText(a.name)}
              {statusOf(availability.data, String(a.id)) === "away" ? " (Away)" : ""}
            </option>
          ))}
          {c.assignee && !admins.some((a) => String(a.id) === String(c.assignee!.id)) && (
            <option value={String(c.assignee.id)}>{cleanUserText(c.assignee.name)}</option>
          )}
        </select>
        <Button
          size="sm"
          variant="secondary"
          disabled={mine}
          aria-label="Assign to me"
          title={mine ? "Assigned to you" : "Assign to me"}
          className="shrink-0 px-2"
          onClick={() => onAction({ kind: "assign", admin: me })}
        >
          <svg
            aria-hidden
            viewBox="0 0 20 20"
            className="size-4"
            fill="none"
            stroke="currentColor"
            strokeWidth={1.6}
          >
            <circle cx="8" cy="6.5" r="3" />
            <path d="M2.5 16.5a5.5 5.5 0 0 1 11 0M15.5 6v5M13 8.5h5" />
          </svg>
        </Button>
        {c.closed ? (
          <Button
            size="sm"
            variant="secondary"
            className="shrink-0"
            onClick={() => onAction({ kind: "reopen" })}
          >
            Reopen
          </Button>
        ) : (
          <Button size="sm" className="shrink-0" onClick={() => onAction({ kind: "close" })}>
            Close
          </Button>
        )}
        <HeaderMore conversation={c} snoozed={snoozed} onAction={onAction} />
        {onDetails && (
          <Button size="sm" variant="secondary" onClick={onDetails} className="shrink-0 xl:hidden">
            Visitor details
          </Button>
        )}
      </div>
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </header>
  );
}
